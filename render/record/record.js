// The game record's script: steps through the pictures and the log, and checks the dice, the hash chain and the
// sealed receipts with the browser's Web Crypto, exactly as engine/dice.py, bot/store/chain.py and
// engine/sealing.py compute them. It fetches nothing: everything it reads is in this page.
"use strict";

// --- JSON that keeps every number as written -----------------------------------------------------------------
// The hashes cover Python's canonical JSON text; a number such as 2.0 must stay "2.0", which JSON.parse loses.
class Num {
  constructor(raw) { this.raw = raw; }
  valueOf() { return Number(this.raw); }
  toString() { return this.raw; }
}

function parseExact(text) {
  let at = 0;
  const fail = (what) => { throw new Error(`the record's data is not JSON (${what} at ${at})`); };
  const space = () => { while (at < text.length && " \t\n\r".includes(text[at])) at++; };
  function value() {
    space();
    const c = text[at];
    if (c === "{") {
      at++; const out = Object.create(null); space();
      if (text[at] === "}") { at++; return out; }
      for (;;) {
        space(); const key = string(); space();
        if (text[at++] !== ":") fail("a colon");
        out[key] = value(); space();
        const next = text[at++];
        if (next === "}") return out;
        if (next !== ",") fail("a comma");
      }
    }
    if (c === "[") {
      at++; const out = []; space();
      if (text[at] === "]") { at++; return out; }
      for (;;) {
        out.push(value()); space();
        const next = text[at++];
        if (next === "]") return out;
        if (next !== ",") fail("a comma");
      }
    }
    if (c === '"') return string();
    if (text.startsWith("true", at)) { at += 4; return true; }
    if (text.startsWith("false", at)) { at += 5; return false; }
    if (text.startsWith("null", at)) { at += 4; return null; }
    const match = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at, at + 40));
    if (!match) fail("a value");
    at += match[0].length;
    return new Num(match[0]);
  }
  function string() {
    if (text[at] !== '"') fail("a string");
    const end = text.indexOf('"', at + 1);
    const plain = text.slice(at + 1, end);
    if (end > 0 && !plain.includes("\\")) { at = end + 1; return plain; }
    let out = ""; at++;
    for (;;) {
      const c = text[at++];
      if (c === undefined) fail("the end of a string");
      if (c === '"') return out;
      if (c !== "\\") { out += c; continue; }
      const e = text[at++];
      const simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (e in simple) out += simple[e];
      else if (e === "u") { out += String.fromCharCode(parseInt(text.slice(at, at + 4), 16)); at += 4; }
      else fail("an escape");
    }
  }
  const result = value(); space();
  if (at !== text.length) fail("the end");
  return result;
}

function quote(s, ascii) {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]; const code = s.charCodeAt(i);
    const named = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };
    if (c in named) out += named[c];
    else if (code < 0x20 || (ascii && code > 0x7e)) out += "\\u" + code.toString(16).padStart(4, "0");
    else out += c;
  }
  return out + '"';
}

// Python's json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=ascii).
function canonical(v, ascii = true) {
  if (v === null || v === undefined) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (v instanceof Num) return v.raw;
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : JSON.stringify(v);
  if (typeof v === "string") return quote(v, ascii);
  if (Array.isArray(v)) return "[" + v.map((x) => canonical(x, ascii)).join(",") + "]";
  const keys = Object.keys(v).sort();
  return "{" + keys.map((k) => quote(k, ascii) + ":" + canonical(v[k], ascii)).join(",") + "}";
}

// --- Hashes, dice --------------------------------------------------------------------------------------------
const utf8 = (s) => new TextEncoder().encode(s);
const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (h) => new Uint8Array(h.match(/../g).map((b) => parseInt(b, 16)));
async function sha256(text) { return hex(await crypto.subtle.digest("SHA-256", utf8(text))); }
async function hmac(key, message) {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, message));
}
// engine/dice.py: roll n = int(HMAC-SHA256(seed, str(n))[:8], big-endian) % sides + 1
async function roll(seed, number, sides) {
  const digest = await hmac(seed, utf8(String(number)));
  let value = 0n;
  for (const byte of digest.slice(0, 8)) value = (value << 8n) | BigInt(byte);
  return Number(value % BigInt(sides)) + 1;
}

// --- The checks ----------------------------------------------------------------------------------------------
const n = (v) => (v === null || v === undefined ? v : Number(v));
const what = (row) => `action #${n(row.seq)} (${row.seat} ${row.verb})`;

async function checkChain(seedHash, rows, head) {
  const problems = [];
  let previous = seedHash;
  let expected = 1;
  const undos = new Map();
  for (const row of rows) {
    const after = n(row.undone_after);
    if (after !== null) undos.set(after, [...(undos.get(after) || []), n(row.seq)]);
    if (row.undone && after === null) problems.push(`${what(row)} is marked undone, but no undo was chained`);
    if (!row.undone && after !== null) problems.push(`${what(row)} was taken back, but is marked as standing`);
  }
  for (const row of rows) {
    const seq = n(row.seq);
    if (seq !== expected) {
      const gap = seq > expected ? "missing" : "repeated";
      problems.push(`action #${seq} follows #${expected - 1}: action number(s) ${gap} (a row was deleted or inserted)`);
    }
    expected = seq + 1;
    if (row.events_hash !== (await sha256(canonical(row.events)))) {
      problems.push(`${what(row)}: its events differ from the ones chained`);
    }
    const parts = [previous, row.seq, row.seat, row.user_id, row.verb, row.args, row.events_hash || ""];
    if (row.record !== null) parts.push(row.record);
    const recomputed = await sha256(canonical(parts));
    if (row.chain !== recomputed) {
      problems.push(`${what(row)}: broken link (the action, or the one before it, was changed, inserted or deleted)`);
    }
    previous = row.chain || recomputed;
    for (const undone of (undos.get(seq) || []).sort((a, b) => b - a)) {
      previous = await sha256(canonical([previous, "undo", undone]));
    }
    undos.delete(seq);
  }
  if (head !== null && head !== previous) {
    problems.push(`the chain's head kept with the game (${head.slice(0, 16)}) is not the one its log gives ` +
      `(${previous.slice(0, 16)}): actions or undos were deleted, added or changed at the end`);
  }
  return { problems, links: rows.length };
}

async function checkDice(seed, rows) {
  const problems = [];
  const checked = new Set();
  const seeds = new Map();
  for (const row of rows) {
    const draws = row.record && Array.isArray(row.record.draws) ? row.record.draws : [];
    for (const draw of draws) {
      const stream = String(draw.stream ?? ""); const number = n(draw.number); const sides = n(draw.sides);
      const die = n(draw.die);
      if (!seeds.has(stream)) seeds.set(stream, stream ? await hmac(seed, utf8(stream)) : seed);
      const expected = sides > 0 ? await roll(seeds.get(stream), number, sides) : null;
      checked.add(`${stream}/${number}/${sides}`);
      if (expected !== die) {
        const which = stream ? `secret stream '${stream}'` : "the public dice";
        problems.push(`${what(row)}: roll #${number} of ${which} (d${sides}) was kept as ${die} but the seed gives ${expected}`);
      }
    }
    for (const event of Array.isArray(row.events) ? row.events : []) {
      const data = event && event.data;
      if (!data || typeof data !== "object" || !("number" in data) || !("die" in data)) continue;
      const integer = (v) => v instanceof Num && /^-?\d+$/.test(v.raw);
      if (!integer(data.number) || (data.sides !== undefined && !integer(data.sides))) continue;
      const number = n(data.number); const sides = data.sides === undefined ? 6 : n(data.sides);
      checked.add(`/${number}/${sides}`);
      const expected = sides > 0 ? await roll(seed, number, sides) : null;
      if (expected !== n(data.die)) {
        problems.push(`${what(row)}: roll #${number} (d${sides}) was announced as ${n(data.die)} but the seed gives ${expected}`);
      }
    }
  }
  return { problems, rolls: checked.size };
}

async function checkSealed(rows, kept) {
  const problems = [];
  let checked = 0;
  let waiting = 0;
  const bySeq = new Map(rows.map((r) => [n(r.seq), r]));
  for (const secret of kept) {
    const head = `sealed decision of ${secret.owner}` + (secret.seq !== null ? ` (action #${n(secret.seq)})` : "");
    checked++;
    if ((await sha256(secret.payload)) !== secret.receipt) {
      problems.push(`${head}: its receipt ${secret.receipt.slice(0, 16)} is not the hash of the text revealed`);
      continue;
    }
    let revealed;
    try { revealed = parseExact(secret.payload); } catch (e) { problems.push(`${head}: the revealed text is not JSON`); continue; }
    const action = secret.seq !== null ? bySeq.get(n(secret.seq)) : undefined;
    if (action && canonical([revealed.seat, revealed.verb, revealed.args]) !== canonical([action.seat, action.verb, action.args])) {
      problems.push(`${head}: the revealed decision is not the action the log holds`);
    }
  }
  const found = new Map();
  for (const row of rows.filter((r) => !r.undone)) {
    for (const event of Array.isArray(row.events) ? row.events : []) {
      const data = event && event.data;
      if (!data || typeof data.secret !== "string") continue;
      if (event.kind === "sealed" && typeof data.receipt === "string") {
        found.set(data.secret, { id: data.secret, owner: String(data.owner ?? ""), at: n(row.seq), receipt: data.receipt });
      } else if (event.kind === "reveal" && found.has(data.secret) && "content" in data) {
        Object.assign(found.get(data.secret), { revealedAt: n(row.seq), content: data.content, salt: data.salt });
      }
    }
  }
  for (const d of found.values()) {
    if (d.revealedAt === undefined || typeof d.salt !== "string") { waiting++; continue; }
    checked++;
    const text = canonical({ salt: d.salt, secret: d.content }, false);
    if ((await sha256(text)) !== d.receipt) {
      problems.push(`sealed decision ${d.id} (${d.owner}, sealed at action #${d.at}): what action #${d.revealedAt} ` +
        `revealed does not give the receipt posted at the sealing (${d.receipt.slice(0, 16)})`);
    }
  }
  return { problems, checked, waiting };
}

async function verify(data) {
  const done = []; const awaiting = []; let problems = [];
  if (!(window.crypto && crypto.subtle)) {
    return { state: "unchecked", problems: [], done, awaiting: ["every check: this browser offers no Web Crypto here"] };
  }
  const rows = data.chain;
  if (rows === null) {
    awaiting.push("the hash chain and the sealed receipts: part of the log is hidden from this view until the game ends");
  } else {
    const chained = await checkChain(data.seed_hash, rows, data.head);
    problems = problems.concat(chained.problems);
    done.push(`${chained.links} link(s) of the hash chain recomputed from the published seed hash`);
    const sealed = await checkSealed(rows, data.sealed);
    problems = problems.concat(sealed.problems);
    if (sealed.checked) done.push(`${sealed.checked} sealed receipt(s) recomputed from what was revealed`);
    if (sealed.waiting) awaiting.push(`${sealed.waiting} sealed decision(s) not revealed yet`);
  }
  if (data.seed === null) {
    awaiting.push("the dice: every roll is recomputed from the seed, revealed when the game ends");
  } else {
    const seed = fromHex(data.seed);
    if (hex(await crypto.subtle.digest("SHA-256", seed)) !== data.seed_hash) {
      problems.push("the revealed seed does not match the hash published at the game's creation");
    } else {
      done.push("the revealed seed matches the hash published at the game's creation");
    }
    if (rows !== null) {
      const dice = await checkDice(seed, rows);
      problems = problems.concat(dice.problems);
      done.push(`${dice.rolls} roll(s) recomputed from the seed (HMAC-SHA256)`);
    }
  }
  const state = problems.length ? "disagrees" : awaiting.length ? "awaiting" : "agrees";
  return { state, problems: [...new Set(problems)], done, awaiting };
}

function showVerdict(result) {
  const box = document.getElementById("verdict");
  box.dataset.state = result.state;
  const headline = {
    agrees: "Everything agrees.",
    disagrees: "Something does not agree:",
    awaiting: result.done.length ? "Everything checked so far agrees; some checks await the end." : "Checks await the end.",
    unchecked: "Nothing could be checked.",
  }[result.state];
  box.replaceChildren();
  const h = document.createElement("p"); h.className = "headline"; h.textContent = headline; box.append(h);
  const list = (items, cls) => {
    if (!items.length) return;
    const ul = document.createElement("ul"); ul.className = cls;
    for (const item of items) { const li = document.createElement("li"); li.textContent = item; ul.append(li); }
    box.append(ul);
  };
  list(result.problems, "problems");
  list(result.done.map((d) => "Checked: " + d), "done");
  list(result.awaiting.map((a) => "Awaiting: " + a), "awaiting");
}

// --- Stepping through the game -------------------------------------------------------------------------------
function stepper(frames, entries) {
  const slider = document.getElementById("step");
  const caption = document.getElementById("caption");
  const canvas = document.getElementById("map");
  const items = Array.from(document.querySelectorAll("#log li[data-step]"));
  const steps = frames.length || entries.length;
  slider.max = String(Math.max(0, steps - 1));
  const images = new Map();
  let painted = -1;
  let wanted = 0;
  const image = (i) => {
    if (!images.has(i)) {
      const img = new Image(); img.src = frames[i].src;
      images.set(i, img.decode().then(() => img));
    }
    return images.get(i);
  };
  async function paint(target) {
    let key = target;
    while (!frames[key].key) key--;
    let from = painted >= key && painted <= target ? painted + 1 : key;
    const ctx = canvas.getContext("2d");
    for (let i = from; i <= target; i++) {
      const f = frames[i];
      if (!f.src) { painted = i; continue; }
      const img = await image(i);
      if (wanted !== target) return;
      if (f.key) {
        if (canvas.width !== f.w || canvas.height !== f.h) { canvas.width = f.w; canvas.height = f.h; }
        ctx.drawImage(img, 0, 0);
      } else {
        f.tiles.forEach(([x, y, w, h], t) => {
          ctx.drawImage(img, (t % data.columns) * data.tile, Math.floor(t / data.columns) * data.tile, w, h, x, y, w, h);
        });
      }
      painted = i;
    }
    canvas.dataset.painted = String(painted);
  }
  function go(index) {
    index = Math.max(0, Math.min(steps - 1, index));
    wanted = index;
    slider.value = String(index);
    document.body.dataset.step = String(index);
    const current = items.filter((li) => Number(li.dataset.step) === index);
    for (const li of items) li.classList.toggle("current", Number(li.dataset.step) === index);
    if (current.length) current[current.length - 1].scrollIntoView({ block: "nearest" });
    if (frames.length) {
      caption.textContent = `${index + 1} / ${steps}: ${frames[index].caption}`;
      paint(index);
    } else if (entries.length) {
      caption.textContent = `${index + 1} / ${steps}: action #${entries[index].seq}`;
      const shown = document.getElementById("current");
      if (shown && current.length) shown.replaceChildren(...Array.from(current[0].childNodes, (n) => n.cloneNode(true)));
    }
  }
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.getElementById("prev").addEventListener("click", () => go(wanted - 1));
  document.getElementById("next").addEventListener("click", () => go(wanted + 1));
  document.addEventListener("keydown", (event) => {
    if (event.target === slider) return; // the slider steps by itself
    const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
    if (event.key in moves) { go(wanted + moves[event.key]); event.preventDefault(); }
    if (event.key === "Home") go(0);
    if (event.key === "End") go(steps - 1);
  });
  for (const li of items) li.addEventListener("click", () => go(Number(li.dataset.step)));
  if (steps) go(steps - 1);
}

const data = JSON.parse(document.getElementById("record-view").textContent);
stepper(data.frames, data.entries);
(async () => {
  try {
    const checked = parseExact(document.getElementById("record-check").textContent);
    showVerdict(await verify(checked));
  } catch (error) {
    showVerdict({ state: "disagrees", problems: [String(error.message || error)], done: [], awaiting: [] });
  }
})();
