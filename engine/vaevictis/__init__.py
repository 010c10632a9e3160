"""The Vae Victis operational system (Ardennes 1944, Alsace 1944): data, rules and the game contract."""
