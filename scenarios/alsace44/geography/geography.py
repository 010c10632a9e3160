"""Geographic source for the Alsace 1944 map (Rhine and Danube: Alsace 1944, Vae Victis 59).

Real-world geography of the Belfort Gap, the southern Vosges, the Sundgau and the Rhine plain in decimal
degrees (lat, lon), typed from general knowledge of the ground (and of the 1944 road net, which the
bibliography's Michelin 104 map "Bataille d'Alsace" shows); build_map.py turns it into map.toml. Nothing
here is copied from the game map, which we do not have.

Conventions (as for scenarios/ardennes44/geography/geography.py):
- A point is (lat, lon), or a hex number string ("3103"): that hex's centre on the game grid.
- ANCHORS pin the towns whose hex the rules print to that hex; build_map.py bends all geography smoothly
  round them. docs/rules/alsace44-map.md gives the method and every judgement call.
"""

from typing import Literal, TypeAlias

LatLon: TypeAlias = tuple[float, float]
HexNumber: TypeAlias = str
Point: TypeAlias = LatLon | HexNumber
Polyline: TypeAlias = list[LatLon]
Polygon: TypeAlias = list[LatLon]
SettlementKind: TypeAlias = Literal["city", "village"]
# clear (cut out of earlier areas), difficult, forest, mountain peak, Switzerland
AreaLetter: TypeAlias = Literal["c", "d", "f", "m", "s"]
TerrainLetter: TypeAlias = Literal[".", "d", "f", "m", "s"]
RiverKind: TypeAlias = Literal["river", "canal", "uncrossable"]

Anchor: TypeAlias = tuple[str, float, float, HexNumber]
Settlement: TypeAlias = tuple[str, float, float, SettlementKind, int]
Waypoint: TypeAlias = str | LatLon
Road: TypeAlias = tuple[str, list[Waypoint]]
TerrainArea: TypeAlias = tuple[AreaLetter, str, Polygon]
Feature: TypeAlias = tuple[str, float, float]  # (name, lat, lon)

# fmt: off

# --- Anchors: the hexes the rules print (0.2 erratum, 16, 19.1, 19.2). -----------------------------------
ANCHORS: list[Anchor] = [
    ("Belfort", 47.638, 6.862, "1110"),        # 19.1: Belfort 1109, 1110 (1110 is also a fort, 19.2)
    ("Belfort (north)", 47.652, 6.858, "1109"),
    ("Mulhouse", 47.748, 7.338, "2506"),       # 19.2: Mulhouse 2505, 2506, 2606 ("Mulhouse barracks", 19.4)
    ("Mulhouse (north)", 47.765, 7.330, "2505"),
    ("Mulhouse (barracks)", 47.742, 7.365, "2606"),
    ("Montbéliard", 47.510, 6.798, "0915"),    # 19.1: Montbéliard 0915
    ("Sochaux", 47.508, 6.827, "1015"),        # 19.1: Sochaux 1015
    ("Chalampé", 47.820, 7.543, "3103"),       # 16, 19.2: Chalampé 3103, on the Rhine
    ("Huningue", 47.592, 7.583, "3312"),       # 16, 19.2: Huningue 3312
    ("Sainte-Marie", 47.507, 6.698, "0616"),   # 0.2 erratum: the village in 0616 is Sainte-Marie
    ("Mont Vaudois", 47.583, 6.785, "0812"),   # fort 0812 (Hericourt's fort, above the Lizaine)
    ("Fort du Mont-Bart", 47.487, 6.763, "0816"),  # fort 0816 (12.3's example), above Bavans
]

# --- Settlements: (name, lat, lon, kind, priority); lower priority wins a shared hex. ---------------------
SETTLEMENTS: list[Settlement] = [
    ("Belfort", 47.638, 6.862, "city", 0),
    ("Mulhouse", 47.748, 7.338, "city", 0),
    ("Montbéliard", 47.510, 6.798, "city", 0),
    ("Sochaux", 47.508, 6.827, "city", 0),
    ("Chalampé", 47.820, 7.543, "village", 1),
    ("Huningue", 47.592, 7.583, "village", 1),
    ("Sainte-Marie", 47.507, 6.698, "village", 1),
    ("Hericourt", 47.578, 6.762, "village", 1),
    ("Audincourt", 47.483, 6.841, "village", 1),
    ("Altkirch", 47.623, 7.240, "village", 1),
    ("Thann", 47.807, 7.103, "village", 1),
    ("Cernay", 47.807, 7.177, "village", 1),
    ("Masevaux", 47.775, 6.995, "village", 1),
    ("Dannemarie", 47.630, 7.120, "village", 1),
    ("Delle", 47.508, 6.999, "village", 1),
    ("Saint-Louis", 47.590, 7.560, "village", 1),
    ("Ensisheim", 47.866, 7.353, "village", 1),
    ("Giromagny", 47.742, 6.829, "village", 1),
    ("Ronchamp", 47.701, 6.636, "village", 1),
    ("Champagney", 47.706, 6.683, "village", 1),
    ("Pont-de-Roide", 47.389, 6.770, "village", 1),
    ("Blamont", 47.386, 6.848, "village", 1),
    ("Ferrette", 47.494, 7.314, "village", 1),
    ("Seppois", 47.537, 7.178, "village", 1),
    ("Burnhaupt", 47.742, 7.140, "village", 1),
    ("Grandvillars", 47.539, 6.971, "village", 1),
    ("Beaucourt", 47.488, 6.923, "village", 1),
    ("Valentigney", 47.463, 6.832, "village", 1),
    ("Herimoncourt", 47.444, 6.880, "village", 1),
    ("Etupes", 47.505, 6.871, "village", 1),
    ("Bethoncourt", 47.535, 6.805, "village", 1),
    ("Bavans", 47.486, 6.733, "village", 1),
    ("L'Isle-sur-le-Doubs", 47.449, 6.584, "village", 1),
    ("Clerval", 47.394, 6.499, "village", 1),
    ("Arcey", 47.523, 6.662, "village", 1),
    ("Saulnot", 47.560, 6.640, "village", 1),
    ("Frahier", 47.663, 6.745, "village", 1),
    ("Chenebier", 47.646, 6.708, "village", 1),
    ("Plancher-Bas", 47.718, 6.733, "village", 1),
    ("Plancher-les-Mines", 47.762, 6.744, "village", 1),
    ("Servance", 47.822, 6.683, "village", 1),
    ("Melisey", 47.755, 6.581, "village", 1),
    ("Fresse", 47.757, 6.659, "village", 1),
    ("Château-Lambert", 47.848, 6.673, "village", 2),
    ("Faucogney", 47.848, 6.565, "village", 1),
    ("Lepuix", 47.760, 6.816, "village", 2),
    ("Valdoie", 47.668, 6.845, "village", 1),
    ("Etueffont", 47.720, 6.920, "village", 1),
    ("Rougemont-le-Chateau", 47.735, 6.966, "village", 1),
    ("Sewen", 47.806, 6.900, "village", 1),
    ("Lachapelle-sous-Rougemont", 47.700, 7.012, "village", 1),
    ("Roppe", 47.674, 6.924, "village", 1),
    ("Fontaine", 47.657, 7.000, "village", 1),
    ("Perouse", 47.637, 6.895, "village", 2),
    ("Danjoutin", 47.618, 6.866, "village", 2),
    ("Vezelois", 47.607, 6.920, "village", 1),
    ("Montreux-Chateau", 47.610, 6.997, "village", 1),
    ("Bourogne", 47.563, 6.917, "village", 1),
    ("Chatenois-les-Forges", 47.560, 6.846, "village", 1),
    ("Mezire", 47.534, 6.922, "village", 2),
    ("Badevel", 47.500, 6.945, "village", 2),
    ("Abbevillers", 47.435, 6.917, "village", 1),
    ("Mandeure", 47.449, 6.809, "village", 2),
    ("Voujeaucourt", 47.475, 6.776, "village", 2),
    ("Colombier-Fontaine", 47.451, 6.689, "village", 1),
    ("Lougres", 47.474, 6.707, "village", 2),
    ("Suarce", 47.567, 7.082, "village", 1),
    ("Hindlingen", 47.573, 7.133, "village", 1),
    ("Ballersdorf", 47.627, 7.152, "village", 2),
    ("Carspach", 47.617, 7.223, "village", 2),
    ("Hirsingue", 47.585, 7.252, "village", 1),
    ("Hirtzbach", 47.598, 7.218, "village", 2),
    ("Waldighofen", 47.552, 7.313, "village", 1),
    ("Folgensbourg", 47.553, 7.440, "village", 1),
    ("Hegenheim", 47.561, 7.525, "village", 2),
    ("Illfurth", 47.673, 7.266, "village", 1),
    ("Zillisheim", 47.697, 7.296, "village", 2),
    ("Brunstatt", 47.722, 7.321, "village", 2),
    ("Heimsbrunn", 47.726, 7.229, "village", 2),
    ("Guewenheim", 47.753, 7.090, "village", 1),
    ("Reiningue", 47.752, 7.234, "village", 2),
    ("Lutterbach", 47.760, 7.280, "village", 2),
    ("Wittelsheim", 47.808, 7.240, "village", 1),
    ("Staffelfelden", 47.826, 7.254, "village", 2),
    ("Wittenheim", 47.808, 7.336, "village", 2),
    ("Battenheim", 47.818, 7.383, "village", 1),
    ("Rixheim", 47.749, 7.406, "village", 1),
    ("Habsheim", 47.731, 7.418, "village", 2),
    ("Landser", 47.684, 7.388, "village", 1),
    ("Sierentz", 47.659, 7.456, "village", 1),
    ("Bartenheim", 47.634, 7.476, "village", 2),
    ("Kembs", 47.690, 7.500, "village", 1),
    ("Niffer", 47.717, 7.508, "village", 2),
    ("Ottmarsheim", 47.787, 7.507, "village", 1),
    ("Bantzenheim", 47.823, 7.518, "village", 2),
    ("Moosch", 47.859, 7.051, "village", 1),
    ("Saint-Amarin", 47.875, 7.030, "village", 2),
    ("Bollwiller", 47.858, 7.262, "village", 1),
]

# Settlements that the fit puts a hex off, moved where the rules or their neighbours demand.
HEX_OVERRIDES: dict[str, HexNumber] = {
    "Belfort": "1110", "Mulhouse": "2506", "Montbéliard": "0915", "Sochaux": "1015",
    "Chalampé": "3103", "Huningue": "3312", "Sainte-Marie": "0616",
}

# Cities that cover more than one hex (19.1, 19.2): the extra hexes.
CITY_EXTRA_HEXES: dict[str, list[HexNumber]] = {
    "Belfort": ["1109"],
    "Mulhouse": ["2505", "2606"],
}

# --- Rivers and canals: name -> (kind, polylines upstream to downstream). ------------------------------
# Bigger rivers first: a hexside already on an earlier river stays with it.
RIVERS: dict[str, tuple[RiverKind, list[Polyline]]] = {
    "Rhine": ("uncrossable", [[
        (47.930, 7.570), (47.880, 7.563), (47.840, 7.556), (47.812, 7.552), (47.780, 7.540),
        (47.745, 7.548), (47.715, 7.548), (47.690, 7.548), (47.655, 7.555), (47.620, 7.575),
        (47.595, 7.592), (47.575, 7.598), (47.562, 7.610), (47.560, 7.660), (47.560, 7.750),
    ]]),
    "Doubs": ("river", [[
        (47.300, 6.820), (47.345, 6.800), (47.389, 6.775), (47.420, 6.790), (47.449, 6.812),
        (47.475, 6.790), (47.480, 6.760), (47.486, 6.733), (47.470, 6.700), (47.451, 6.689),
        (47.449, 6.600), (47.430, 6.550), (47.394, 6.502), (47.380, 6.420),
    ]]),
    "Ill": ("river", [[
        (47.440, 7.262), (47.490, 7.290), (47.552, 7.305), (47.585, 7.255), (47.623, 7.236),
        (47.673, 7.262), (47.700, 7.300), (47.722, 7.325), (47.748, 7.350), (47.782, 7.356),
        (47.830, 7.355), (47.866, 7.345), (47.930, 7.350),
    ]]),
    "Allaine": ("river", [[
        (47.470, 7.040), (47.508, 7.002), (47.539, 6.968), (47.551, 6.936), (47.560, 6.918),
        (47.531, 6.897), (47.530, 6.866), (47.515, 6.835), (47.510, 6.800), (47.490, 6.785),
        (47.475, 6.778),
    ]]),
    "Savoureuse": ("river", [[
        (47.822, 6.842), (47.760, 6.822), (47.742, 6.832), (47.700, 6.842), (47.668, 6.848),
        (47.640, 6.866), (47.618, 6.870), (47.590, 6.860), (47.560, 6.850), (47.537, 6.843),
        (47.515, 6.835),
    ]]),
    "Lizaine": ("river", [[
        (47.660, 6.700), (47.630, 6.725), (47.600, 6.750), (47.578, 6.765), (47.555, 6.790),
        (47.535, 6.802), (47.512, 6.802),
    ]]),
    "Ognon": ("river", [[
        (47.870, 6.640), (47.822, 6.685), (47.790, 6.630), (47.755, 6.583), (47.720, 6.540),
        (47.690, 6.500), (47.660, 6.440),
    ]]),
    "Rahin": ("river", [[
        (47.775, 6.760), (47.740, 6.740), (47.718, 6.728), (47.705, 6.680), (47.700, 6.636),
        (47.695, 6.580), (47.700, 6.530), (47.705, 6.500),
    ]]),
    "Doller": ("river", [[
        (47.820, 6.880), (47.806, 6.903), (47.775, 6.998), (47.755, 7.090), (47.745, 7.140),
        (47.752, 7.234), (47.765, 7.285), (47.782, 7.356),
    ]]),
    "Thur": ("river", [[
        (47.900, 7.010), (47.859, 7.051), (47.810, 7.100), (47.805, 7.177), (47.830, 7.260),
        (47.850, 7.310), (47.866, 7.345),
    ]]),
    "Largue": ("river", [[
        (47.450, 7.230), (47.537, 7.180), (47.573, 7.140), (47.610, 7.130), (47.640, 7.150),
        (47.665, 7.220), (47.673, 7.262),
    ]]),
    "Rhone-Rhine Canal": ("canal", [[
        (47.476, 6.776), (47.505, 6.840), (47.531, 6.900), (47.575, 6.950), (47.610, 6.998),
        (47.625, 7.060), (47.633, 7.120), (47.655, 7.200), (47.676, 7.268), (47.715, 7.318),
        (47.742, 7.345), (47.735, 7.420), (47.722, 7.480), (47.717, 7.510), (47.716, 7.535),
    ]]),
    "Huningue Canal": ("canal", [[
        (47.596, 7.575), (47.640, 7.530), (47.690, 7.505), (47.717, 7.510),
    ]]),
}

# Bridges besides the road crossings (historic crossings on minor roads): (river, hex, hex).
EXTRA_BRIDGES: list[tuple[str, HexNumber, HexNumber]] = []

# --- Roads (1944 net): (name, waypoints). ---------------------------------------------------------------
ROADS: list[Road] = [
    ("N19 Lure - Belfort", ["0108", "Ronchamp", "Champagney", "Frahier", "Belfort"]),
    ("N19 Belfort - Altkirch - Basel", ["Belfort", "Perouse", "Vezelois", "Montreux-Chateau", "Dannemarie",
                                        "Ballersdorf", "Carspach", "Altkirch", "Hirsingue", "Waldighofen",
                                        "Folgensbourg", "Hegenheim", "Saint-Louis"]),
    ("N83 Belfort - Cernay - Colmar", ["Belfort", "Roppe", "Lachapelle-sous-Rougemont", "Burnhaupt",
                                       "Cernay", "Bollwiller", "2201"]),
    ("Cernay - Soultz", ["Cernay", "Wittelsheim", "2101"]),
    ("N66 Mulhouse - Thann - Bussang", ["Mulhouse", "Lutterbach", "Reiningue", "Cernay", "Thann", "Moosch",
                                        "Saint-Amarin", "1601"]),
    ("Mulhouse - Ensisheim - Colmar", ["Mulhouse", "Wittenheim", "Ensisheim", "2601"]),
    ("Mulhouse - Basel", ["Mulhouse", "Rixheim", "Habsheim", "Sierentz", "Bartenheim", "Saint-Louis",
                          "Huningue"]),
    ("Mulhouse - Chalampé", ["Mulhouse", "Rixheim", "Ottmarsheim", "Chalampé"]),
    ("Chalampé - Neuf-Brisach", ["Chalampé", "Bantzenheim", "3102", "3101"]),
    ("Ensisheim - Chalampé", ["Ensisheim", "Battenheim", "Bantzenheim"]),
    ("Mulhouse - Altkirch", ["Mulhouse", "Brunstatt", "Zillisheim", "Illfurth", "Altkirch"]),
    ("Altkirch - Ferrette", ["Altkirch", "Hirsingue", "Waldighofen", "Ferrette"]),
    ("Dannemarie - Seppois - Delle", ["Dannemarie", "Hindlingen", "Seppois", "Suarce", "Grandvillars"]),
    ("Belfort - Delle", ["Belfort", "Danjoutin", "Bourogne", "Grandvillars", "Delle"]),
    ("Belfort - Montbéliard", ["Belfort", "Danjoutin", "Chatenois-les-Forges", "Sochaux", "Montbéliard"]),
    ("Montbéliard - Hericourt - Lure", ["Montbéliard", "Bethoncourt", "Hericourt", "Saulnot", "0111"]),
    ("Hericourt - Chenebier - Frahier", ["Hericourt", "Chenebier", "Frahier"]),
    ("Hericourt - Belfort", ["Hericourt", (47.612, 6.800), "Belfort"]),
    ("Montbéliard - Audincourt - Pont-de-Roide", ["Montbéliard", "Audincourt", "Valentigney", "Mandeure",
                                                 "Pont-de-Roide", "0822"]),
    # The roads over the Lomont serve the 9e DIC's set-up (19.2): Dambelin, on the Pont-de-Roide - Belvoir
    # road, falls on 0520, the division HQ's hex; the L'Isle - Sancey road climbs past 0220, the RICM's.
    ("Pont-de-Roide - Dambelin - Belvoir", ["Pont-de-Roide", (47.385, 6.685), (47.356, 6.634), "0422"]),
    ("L'Isle-sur-le-Doubs - Glainans - Sancey", ["L'Isle-sur-le-Doubs", (47.380, 6.560), "0222"]),
    ("Audincourt - Delle", ["Audincourt", "Etupes", "Badevel", "Delle"]),
    ("Audincourt - Blamont", ["Audincourt", "Herimoncourt", "Blamont", "1022"]),
    ("Montbéliard - Besancon", ["Montbéliard", "Bavans", "Colombier-Fontaine", "L'Isle-sur-le-Doubs",
                                "Clerval", "0120"]),
    ("Montbéliard - Arcey - Villersexel", ["Montbéliard", "Sainte-Marie", "Arcey", "0115"]),
    ("Belfort - Giromagny - Ballon d'Alsace", ["Belfort", "Valdoie", "Giromagny", "Lepuix", "1001"]),
    ("Giromagny - Plancher - Champagney", ["Giromagny", "Plancher-Bas", "Champagney"]),
    ("Ronchamp - Melisey - Servance", ["Ronchamp", "Fresse", "Melisey", "0106"]),
    ("Melisey - Servance - Le Thillot", ["Melisey", "Servance", "Château-Lambert", "0601"]),
    ("Belfort - Rougemont - Masevaux", ["Belfort", "Etueffont", "Rougemont-le-Chateau", "Masevaux"]),
    ("Masevaux - Burnhaupt - Mulhouse", ["Masevaux", "Guewenheim", "Burnhaupt", "Heimsbrunn", "Mulhouse"]),
    ("Masevaux - Sewen", ["Masevaux", "Sewen"]),
    # The Sewen - Ballon d'Alsace road past the Lac d'Alfeld (1103, where the 269th ID's HQ sets up, 19.2).
    ("Sewen - Lac d'Alfeld - Ballon d'Alsace", ["Sewen", (47.811, 6.880), "1003"]),
    ("Dannemarie - Burnhaupt", ["Dannemarie", "Burnhaupt"]),
    ("Fontaine - Dannemarie", ["Lachapelle-sous-Rougemont", "Fontaine", "Montreux-Chateau"]),
    ("Landser - Kembs", ["Zillisheim", "Landser", "Sierentz", "Kembs", "Niffer", "Ottmarsheim"]),
    ("Altkirch - Sierentz", ["Altkirch", (47.640, 7.350), "Sierentz"]),
    ("Bourogne - Montreux", ["Bourogne", "Montreux-Chateau"]),
    ("Wittelsheim - Mulhouse", ["Wittelsheim", "Lutterbach"]),
]

# --- Terrain areas: applied in order, a later area overriding an earlier one; the rest is clear. ---------
TERRAIN_AREAS: list[TerrainArea] = [
    # the southern Vosges: slopes and valleys (difficult), north of the Lure - Giromagny - Masevaux - Thann line
    ("d", "southern Vosges", [
        (47.930, 6.450), (47.750, 6.450), (47.725, 6.560), (47.722, 6.700), (47.735, 6.790),
        (47.722, 6.860), (47.712, 6.950), (47.745, 7.020), (47.780, 7.080), (47.800, 7.150),
        (47.830, 7.200), (47.930, 7.210),
    ]),
    # the valleys cut into it (clear): the Thur below Moosch, the Doller below Sewen, the Rahin, the Ognon
    ("c", "Thur valley", [(47.900, 7.030), (47.860, 7.030), (47.812, 7.080), (47.800, 7.140),
                          (47.820, 7.150), (47.870, 7.070), (47.900, 7.060)]),
    ("c", "Doller valley", [(47.812, 6.900), (47.790, 6.950), (47.770, 7.030), (47.785, 7.040),
                            (47.800, 6.990), (47.818, 6.920)]),
    ("c", "Ognon valley", [(47.780, 6.590), (47.745, 6.540), (47.735, 6.570), (47.770, 6.620)]),
    # forests of the lowlands
    ("f", "Foret de la Hardt", [(47.860, 7.420), (47.840, 7.480), (47.770, 7.480), (47.700, 7.470),
                                (47.660, 7.440), (47.680, 7.400), (47.740, 7.440), (47.790, 7.430),
                                (47.830, 7.400)]),
    ("f", "Nonnenbruch", [(47.815, 7.190), (47.820, 7.270), (47.790, 7.300), (47.770, 7.250),
                          (47.780, 7.190)]),
    ("f", "Foret d'Arsot and Salbert", [(47.700, 6.780), (47.690, 6.830), (47.655, 6.830),
                                        (47.660, 6.780)]),
    ("f", "woods of Chenebier and Chagey", [(47.660, 6.660), (47.650, 6.730), (47.610, 6.735),
                                            (47.600, 6.680), (47.630, 6.640)]),
    ("f", "Foret de Saint-Antoine", [(47.640, 6.520), (47.620, 6.600), (47.570, 6.600), (47.580, 6.520)]),
    ("f", "woods of Montreux and Suarce", [(47.610, 7.020), (47.600, 7.080), (47.570, 7.060),
                                           (47.575, 7.020)]),
    ("f", "Sundgau woods (Saint-Leger, Hirtzbach)", [(47.680, 7.150), (47.670, 7.220), (47.640, 7.200),
                                                     (47.645, 7.140)]),
    ("f", "Sundgau woods (Seppois - Hirsingue)", [(47.575, 7.160), (47.580, 7.230), (47.550, 7.250),
                                                  (47.545, 7.180)]),
    ("f", "Bois de Bavans", [(47.500, 6.700), (47.495, 6.760), (47.470, 6.750), (47.470, 6.705)]),
    ("f", "Foret de Chatenois", [(47.580, 6.880), (47.575, 6.905), (47.545, 6.900), (47.550, 6.870)]),
    ("f", "Foret de la Wolfskehl (Kembs)", [(47.660, 7.500), (47.640, 7.520), (47.610, 7.520),
                                            (47.625, 7.495)]),
    # the Lomont ridge and the Doubs gorges, south of the Doubs
    ("d", "Lomont", [(47.420, 6.480), (47.430, 6.620), (47.435, 6.760), (47.410, 6.800),
                     (47.330, 6.800), (47.330, 6.480)]),
    # the plateau of Blamont and Herimoncourt
    ("f", "Blamont plateau woods", [(47.430, 6.840), (47.430, 6.900), (47.390, 6.900), (47.380, 6.830)]),
    # the Jura alsacien round Ferrette
    ("d", "Jura alsacien", [(47.510, 7.230), (47.515, 7.330), (47.505, 7.450), (47.470, 7.460),
                            (47.450, 7.300), (47.460, 7.230)]),
    # Switzerland: south of the 1944 frontier, from Basel round the Ajoie to the Doubs
    ("s", "Switzerland", [
        (47.600, 7.800), (47.585, 7.600), (47.563, 7.560), (47.535, 7.525), (47.505, 7.480),
        (47.490, 7.420), (47.470, 7.380), (47.450, 7.300), (47.430, 7.240), (47.455, 7.200),
        (47.490, 7.170), (47.500, 7.140), (47.503, 7.080), (47.497, 7.020), (47.500, 6.990),
        (47.470, 6.970), (47.445, 6.950), (47.430, 6.930), (47.400, 6.905), (47.370, 6.885),
        (47.330, 6.870), (47.250, 6.870), (47.250, 7.800),
    ]),
]

# Summits of the mountain-peak class (TEC "Montagneux Sommet"): (name, lat, lon).
PEAKS: list[Feature] = [
    ("Ballon d'Alsace", 47.822, 6.842),
    ("Ballon de Servance", 47.815, 6.770),
    ("Planche des Belles Filles", 47.772, 6.780),
    ("Baerenkopf", 47.820, 6.930),
    ("Rossberg", 47.862, 7.000),
]

# Factories (TEC "Usine"): industrial sites of 1944 (reconstructed: the rules print none of them).
FACTORIES: list[Feature] = [
    ("Peugeot works, Sochaux", 47.508, 6.827),
    ("Peugeot works, Audincourt", 47.483, 6.841),
    ("Japy works, Beaucourt", 47.488, 6.923),
    ("Alsthom works, Belfort", 47.652, 6.858),
    ("Potash mine Amelie, Wittelsheim", 47.808, 7.240),
    ("Potash mine Theodore, Wittenheim", 47.808, 7.336),
    ("Chemical works, Thann", 47.807, 7.103),
    ("DMC mills, Mulhouse", 47.765, 7.330),
]

# The hexes east of the Rhine (Baden): on the map, beyond the river nobody may cross.
GERMAN_BANK: Polygon = [(47.950, 7.560), (47.950, 7.900), (47.560, 7.900), (47.560, 7.610), (47.600, 7.593),
                        (47.650, 7.548), (47.700, 7.528), (47.760, 7.545), (47.840, 7.556), (47.950, 7.566)]
