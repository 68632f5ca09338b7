/* The GM's fight tracker: pick the fighters, take each round's declarations
 * in a few taps, and read the round back slot by slot.
 *
 * Rules come from resolver.js (the port of resolver.py); this file is the
 * screens and the bookkeeping between rounds. Every value from the game's
 * data reaches the page as text (textContent, setAttribute on attributes we
 * name ourselves, option text), never as HTML. The fight is kept in this
 * browser's localStorage only, so a reload or a locked phone loses nothing;
 * nothing is sent anywhere. Where the browser refuses storage (a private
 * tab, an opaque origin) a banner says the fight lasts only until a reload.
 * Where the browser offers them, the screen is kept awake and the 5-second
 * countdown beeps and vibrates; where it does not, nothing complains.
 */
(function () {
  "use strict";

  var API = window.SixesResolver;
  var DATA = JSON.parse(document.getElementById("tracker-data").textContent);
  var R = API.create(DATA.rules);
  var SPEEDS = DATA.rules.speeds;
  var ACTIONS = DATA.rules.action_keys;
  var POINTS = DATA.rules.action_points;
  var GM_CONDITIONS = DATA.rules.gm_conditions;
  var WORDS = DATA.words;   /* the system's glossary (systems/sixes/glossary.py): the sheets' words */
  var CAST = DATA.cast;
  var BY_NAME = new Map(CAST.map(function (f) { return [f.name, f]; }));
  var PROFILES = new Map(CAST.map(function (f) { return [f.name, API.profileOf(f.profile)]; }));
  var SPECIALS = new Map(DATA.specials);
  var STORE = "sixes-fight-tracker:" + DATA.version + ":" + fingerprint(JSON.stringify(DATA));
  var STATUS_WORDS = ["Rattled", "Unconscious", "Dead", "Escaped"];

  var app = document.getElementById("app");
  var S = load() || blank();
  var UI = {ruling: null, message: null, lastScreen: null, lastEditing: null};

  /* --- small helpers ------------------------------------------------------ */

  function fingerprint(text) {
    var h = 5381;
    for (var i = 0; i < text.length; i++) { h = ((h * 33) ^ text.charCodeAt(i)) >>> 0; }
    return h.toString(36);
  }

  /* An element: `props` are names this file chooses; data only ever goes in
   * as text children or attribute values. */
  function el(tag, props) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (key) {
      var value = props[key];
      if (key === "pressed") {
        node.setAttribute("aria-pressed", value ? "true" : "false");
      } else if (value === null || value === undefined || value === false) {
        return;
      } else if (key === "class") {
        node.className = value;
      } else if (key === "text") {
        node.textContent = value;
      } else if (key.slice(0, 2) === "on") {
        node.addEventListener(key.slice(2), value);
      } else if (key === "disabled" || key === "hidden" || key === "open") {
        node[key] = Boolean(value);
      } else {
        node.setAttribute(key, value === true ? "" : String(value));
      }
    });
    for (var k = 2; k < arguments.length; k++) { add(node, arguments[k]); }
    return node;
  }

  function add(node, child) {
    if (child === null || child === undefined || child === false) { return; }
    if (Array.isArray(child)) { child.forEach(function (c) { add(node, c); }); return; }
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }

  function button(text, onclick, props) {
    var p = Object.assign({type: "button", onclick: onclick}, props || {});
    return el("button", p, text);
  }

  function clock(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function now() { return Date.now(); }

  function blank() {
    return {screen: "pick", picked: [], fight: null, editing: null};
  }

  /* Whether this browser keeps what is saved: reading the property itself
   * throws on an opaque origin, and setItem throws in some private tabs. */
  function storageWorks() {
    try {
      var probe = STORE + ":probe";
      window.localStorage.setItem(probe, "1");
      var kept = window.localStorage.getItem(probe) === "1";
      window.localStorage.removeItem(probe);
      return kept;
    } catch (e) {
      return false;
    }
  }

  function storageRefused() {
    document.getElementById("storage-banner").hidden = false;
    document.documentElement.setAttribute("data-storage", "memory");
  }

  function save() {
    try { localStorage.setItem(STORE, JSON.stringify(S)); } catch (e) { storageRefused(); }
  }

  function load() {
    try {
      var saved = JSON.parse(localStorage.getItem(STORE) || "null");
      if (!saved || typeof saved !== "object" || !Array.isArray(saved.picked)) { return null; }
      var known = function (name) { return BY_NAME.has(name); };
      if (!saved.picked.every(known)) { return null; }
      if (saved.fight && !saved.fight.states.every(function (s) { return known(s.name); })) { return null; }
      return saved;
    } catch (e) {
      return null;
    }
  }

  function fighters(states) {
    return states.map(function (s) { return API.combatant(PROFILES.get(s.name), s); });
  }

  function special(name) {
    return SPECIALS.get(name);
  }

  function roundNumber() {
    return S.fight.history.length + 1;
  }

  function statusWord(c) {
    return API.status(c);
  }

  function hpText(c) {
    return c.hp + "/" + c.profile.hit_points;
  }

  function chip(c) {
    var word = statusWord(c);
    return word === "Fighting" ? null : el("span", {class: "chip " + word, text: word});
  }

  function logLine(line) {
    var where = line.slot ? WORDS.speed + " " + line.slot + ", " + line.phase
                          : line.phase.charAt(0).toUpperCase() + line.phase.slice(1);
    return where + ": " + line.text;
  }

  /* --- declarations --------------------------------------------------------- */

  function draftOf(name) {
    var found = (S.fight.drafts || []).find(function (pair) { return pair[0] === name; });
    return found ? found[1] : null;
  }

  function setDraft(name, draft) {
    var drafts = S.fight.drafts.filter(function (pair) { return pair[0] !== name; });
    if (draft) { drafts.push([name, draft]); }
    var order = S.fight.states.map(function (s) { return s.name; });
    drafts.sort(function (a, b) { return order.indexOf(a[0]) - order.indexOf(b[0]); });
    S.fight.drafts = drafts;
  }

  function emptyDraft(name) {
    return {actor: name, action: null, speed: null, target: null, special: null, finish: null, redirect_to: null,
            confirmed: []};
  }

  /* Declarations ready for the resolver, in roster order (the order the
   * fighters were picked from the cast). */
  function readyDeclarations() {
    return S.fight.drafts.filter(function (pair) { return pair[1].action && pair[1].speed; })
      .map(function (pair) { return API.declaration(pair[1]); });
  }

  /* What is wrong, per fighter: the resolver's own reasons, plus a word on
   * a declaration still missing its Speed or action. */
  function problems() {
    var found = new Map(), total = 0;
    function note(name, text) {
      if (!found.has(name)) { found.set(name, []); }
      found.get(name).push(text);
      total += 1;
    }
    S.fight.drafts.forEach(function (pair) {
      var d = pair[1];
      if (!d.speed) { note(pair[0], pair[0] + ": choose a " + WORDS.speed + " (the fingers held up)"); }
      if (!d.action) { note(pair[0], pair[0] + ": choose an action (the sign the other hand makes)"); }
    });
    R.validate(fighters(S.fight.states), readyDeclarations()).forEach(function (r) { note(r.actor, r.text); });
    return {by: found, total: total};
  }

  function describe(d) {
    if (!d) { return null; }
    var bits = [];
    bits.push(WORDS.speed + " " + (d.speed || "?"));
    bits.push(d.action ? R.actionName(d.action) + (d.target ? " \u2192 " + d.target : "") : "action ?");
    if (d.special) { bits.push(d.special); }
    if (d.finish) { bits.push(d.finish === "kill" ? "kill" : "knock out"); }
    if (d.redirect_to) { bits.push("turns onto " + d.redirect_to); }
    if (d.confirmed.length) { bits.push("GM confirms beside an ally"); }
    return bits.join(" \u00b7 ");
  }

  /* The Effect this declaration would have, in words (bonuses that are
   * always on; the conditional ones are named). */
  function effectWords(c, d) {
    if (!d || !d.speed || !d.action) { return null; }
    var base = POINTS - d.speed, p = c.profile, plus = 0;
    if (d.action === "recover") { return "Recover: 1 hit point back, whatever the Speed."; }
    if (d.action === "escape") { return "Escape: no Effect; it works unless they are hurt or a special lands first."; }
    if (d.action === "attack") { plus = p.attack_plus; }
    if (d.action === "defend_other") { plus = p.defend_other_plus; }
    if (d.action === "defend_self") { plus = p.defend_self_plus; }
    if (d.action === "special") { plus = p.special_plus; }
    var words = "Effect " + base + (plus ? " + " + plus + " = " + (base + plus) : "");
    if (d.action === "defend_self" && d.special) { words += ", doubled by " + d.special + " = " + 2 * (base + plus); }
    var extra = (p.conditional.get(d.action) || []).map(function (pair) {
      return "+" + pair[1] + " " + R.conditionWords.get(pair[0]);
    });
    if (extra.length) { words += " (" + extra.join(", ") + ")"; }
    return words;
  }

  /* --- resolving ------------------------------------------------------------ */

  /* Play a round from its declarations and the GM's rulings so far. It stops
   * at the first slot with a question for the GM that has no ruling yet. */
  function play(before, decls, rulings) {
    var started = R.start(fighters(before), decls.map(API.declaration));
    if (started.reasons) { return {reasons: started.reasons}; }
    var round = started.round;
    round.declare();
    var pre = round.lines.slice(), slots = [], index = new Map(round.names.map(function (n, i) { return [n, i]; }));
    for (var k = 0; k < SPEEDS.length; k++) {
      var s = SPEEDS[k], from = round.lines.length;
      var pending = round.slotActions(s);
      var ruled = null;
      if (pending && pending.rulings.length) {
        ruled = rulings.find(function (r) { return r.slot === s; });
        if (!ruled) {
          return {pre: pre, slots: slots, waiting: {slot: s, questions: pending.rulings, lines: round.lines.slice(from),
                                                    fighters: round.fighters()}};
        }
        ruled.changes.forEach(function (pair) {
          if (index.has(pair[0])) { round.rule(s, index.get(pair[0]), pair[1]); }
        });
      }
      if (pending) { round.slotEscapes(s, pending); }
      slots.push({slot: s, lines: round.lines.slice(from), fighters: round.fighters()});
    }
    var result = round.finish();
    return {pre: pre, slots: slots, result: result, end: result.log[result.log.length - 1]};
  }

  function resolveRound() {
    var found = problems();
    if (found.total) { return; }
    S.fight.pending = {decls: readyDeclarations(), rulings: [], seconds: (now() - S.fight.roundStarted) / 1000};
    UI.ruling = null;
    advance();
    S.screen = "script";
    S.editing = null;
    save();
    render();
  }

  /* Finish the pending round if no GM question holds it up. */
  function advance() {
    var f = S.fight, p = f.pending;
    if (!p) { return null; }
    var played = play(f.states, p.decls, p.rulings);
    if (played.reasons) {
      f.pending = null;
      UI.message = played.reasons.map(function (r) { return r.text; }).join(" ");
      return null;
    }
    if (played.waiting) { return played; }
    f.history.push({round: roundNumber(), before: f.states, decls: p.decls, rulings: p.rulings,
                    log: played.result.log, after: played.result.combatants.map(API.stateOf),
                    seconds: Math.round(p.seconds)});
    f.states = played.result.combatants.map(API.stateOf);
    f.pending = null;
    f.drafts = [];
    f.roundStarted = now();
    return played;
  }

  function undo() {
    var f = S.fight;
    if (f.pending) {
      f.pending = null;
    } else {
      var last = f.history.pop();
      if (!last) { return; }
      f.states = last.before;
      f.drafts = last.decls.map(function (d) { return [d.actor, d]; });
      f.notes = f.notes.filter(function (n) { return n.before <= last.round; });
      f.roundStarted = now() - 1000 * (last.seconds || 0);
    }
    UI.ruling = null;
    S.screen = "declare";
    S.editing = null;
    save();
    render();
  }

  /* --- screens -------------------------------------------------------------- */

  function render() {
    var keep = UI.lastScreen === S.screen && UI.lastEditing === S.editing ? window.scrollY : 0;
    UI.lastScreen = S.screen;
    UI.lastEditing = S.editing;
    if (!S.fight && S.screen !== "pick") { S.screen = "pick"; }
    app.replaceChildren();
    var dock = document.querySelector(".dock");
    if (dock) { dock.remove(); }
    document.querySelectorAll(".tab").forEach(function (tab) {
      var here = tab.getAttribute("data-screen") === (S.screen === "script" ? "declare" : S.screen);
      tab.classList.toggle("current", here);
      if (here) { tab.setAttribute("aria-current", "page"); } else { tab.removeAttribute("aria-current"); }
      tab.disabled = !S.fight && tab.getAttribute("data-screen") !== "pick";
    });
    if (UI.message) {
      app.append(el("p", {class: "notice problem", role: "alert", text: UI.message}));
      UI.message = null;
    }
    if (S.screen === "pick") { pickScreen(); }
    else if (S.screen === "declare" && S.editing !== null && S.editing !== undefined) { editorScreen(S.editing); }
    else if (S.screen === "declare") { declareScreen(); }
    else if (S.screen === "script") { scriptScreen(); }
    else { logScreen(); }
    tick();
    window.scrollTo(0, keep);
  }

  function setDock(children) {
    var dock = el("div", {class: "dock"}, children);
    document.body.append(dock);
  }

  /* Who is in the fight: by faction, or one by one. */
  function pickScreen() {
    var f = S.fight, inFight = new Set(f ? f.states.map(function (s) { return s.name; }) : []);
    var picked = new Set(S.picked);
    app.append(el("h1", {text: f ? "Fighters: add someone to the fight" : "Who is in the fight?"}));
    app.append(el("p", {class: "quiet", text: f
      ? "New fighters may join between rounds. Nobody leaves except by an Escape."
      : "Tap a faction to take all of it, or tap fighters one by one."}));
    var groups = DATA.factions.map(function (name) {
      return {name: name, members: CAST.filter(function (c) { return c.faction === name; })};
    });
    var loners = CAST.filter(function (c) { return !c.faction; });
    if (loners.length) { groups.push({name: "", members: loners}); }
    groups.forEach(function (group, g) {
      var free = group.members.filter(function (c) { return !inFight.has(c.name); });
      var all = free.length > 0 && free.every(function (c) { return picked.has(c.name); });
      var section = el("section", {class: "faction", "data-faction": g});
      section.append(el("div", {class: "faction-head"},
        el("h2", {text: group.name || "No faction"}),
        button(!free.length ? "All in" : all ? "None of them" : "All " + free.length, function () {
          free.forEach(function (c) { if (all) { picked.delete(c.name); } else { picked.add(c.name); } });
          S.picked = CAST.map(function (c) { return c.name; }).filter(function (n) { return picked.has(n); });
          save();
          render();
        }, {class: "faction-all", disabled: !free.length, pressed: all})));
      group.members.forEach(function (c) {
        var p = c.profile, taken = inFight.has(c.name), on = taken || picked.has(c.name);
        var figures = p.hit_points + " HP \u00b7 armour " + p.armour + " \u00b7 damage " + p.damage;
        var held = p.specials.map(function (pair) { return pair[0]; });
        section.append(button([
          el("span", {class: "box", "aria-hidden": "true", text: on ? "\u2713" : ""}),
          el("span", {class: "who"}, el("span", {class: "name", text: c.name}),
             el("span", {class: "figures", text: figures + (held.length ? " \u00b7 " + held.join(", ") : "") +
                                                  (taken ? " \u00b7 in the fight" : "")}))
        ], function () {
          if (picked.has(c.name)) { picked.delete(c.name); } else { picked.add(c.name); }
          S.picked = CAST.map(function (x) { return x.name; }).filter(function (n) { return picked.has(n); });
          save();
          render();
        }, {class: "pick", pressed: on, disabled: taken, "data-name-index": CAST.indexOf(c)}));
      });
      app.append(section);
    });
    var chosen = S.picked.filter(function (n) { return !inFight.has(n); });
    if (!f) {
      setDock([button("Start the fight with " + chosen.length, startFight,
                      {class: "primary", id: "start", disabled: chosen.length < 2})]);
    } else {
      setDock([button(chosen.length ? "Add " + chosen.length + " to the fight" : "Back to the round", function () {
        if (chosen.length) { join(chosen); }
        S.screen = "declare";
        save();
        render();
      }, {class: "primary", id: "start", disabled: Boolean(f.pending && chosen.length)})]);
    }
  }

  function startFight() {
    var chosen = CAST.filter(function (c) { return S.picked.indexOf(c.name) >= 0; });
    S.fight = {states: chosen.map(function (c) { return c.start; }), drafts: [], history: [], notes: [],
               pending: null, started: now(), roundStarted: now()};
    S.picked = [];
    S.screen = "declare";
    S.editing = null;
    save();
    render();
  }

  function join(names) {
    var f = S.fight;
    names.forEach(function (name) { f.states.push(BY_NAME.get(name).start); });
    f.notes.push({before: roundNumber(), text: _and(names) + (names.length === 1 ? " joins" : " join") +
                  " the fight."});
    S.picked = [];
  }

  function _and(names) {
    return names.length === 1 ? names[0] : names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
  }

  /* The round: every fighter, what they declared, what is wrong. */
  function declareScreen() {
    var f = S.fight;
    if (f.pending) { S.screen = "script"; scriptScreen(); return; }
    var cs = fighters(f.states), found = problems();
    var n = roundNumber();
    app.append(el("h1", {text: "Round " + n + ": declarations"}));
    app.append(el("div", {class: "timer-row"},
      el("div", {class: "clock", id: "round-clock", "aria-label": "Time this round"}, clock((now() - f.roundStarted) / 1000)),
      button("5-second countdown", countdown, {id: "countdown-start"})));
    if (f.history.length) {
      app.append(button("Read round " + (n - 1) + "'s script again", function () { S.screen = "script"; save(); render(); },
                        {class: "link", id: "last-script"}));
    }
    var able = cs.filter(API.canAct), declared = able.filter(function (c) { return draftOf(c.profile.name); });
    app.append(el("p", {class: "quiet", id: "declared-count",
                        text: declared.length + " of " + able.length + " declared; anyone left is off-guard." +
                              (found.total ? " " + found.total + " to fix." : "")}));
    cs.forEach(function (c, i) {
      var name = c.profile.name, d = draftOf(name), wrong = found.by.get(name) || [];
      var said = API.canAct(c) ? (describe(d) || "Not declared: off-guard") : statusWord(c) + ": no action";
      var row = button([
        el("span", {class: "top"}, el("span", {class: "name", text: name}),
           el("span", {class: "hp"}, hpText(c) + " HP", chip(c))),
        el("span", {class: "said" + (d ? " set" : ""), text: said}),
        wrong.length ? el("ul", {class: "problems"}, wrong.map(function (w) { return el("li", {text: w}); })) : null
      ], function () { S.editing = i; save(); render(); },
      {class: "fighter" + (API.canAct(c) ? "" : " cannot") + (wrong.length ? " wrong" : ""), "data-fighter": i});
      app.append(row);
    });
    var dock = [];
    if (found.total) {
      var first = cs.findIndex(function (c) { return found.by.has(c.profile.name); });
      dock.push(button("To fix: " + found.by.get(cs[first].profile.name)[0], function () {
        S.editing = first;
        save();
        render();
      }, {class: "dock-problems link", id: "first-problem"}));
    }
    if (f.history.length) {
      dock.push(button("Undo round " + (n - 1), undo, {id: "undo"}));
    }
    dock.push(button("Resolve round " + n, resolveRound, {class: "primary", id: "resolve", disabled: found.total > 0}));
    setDock(dock);
  }

  function editorScreen(i) {
    var f = S.fight, cs = fighters(f.states), c = cs[i];
    if (!c) { S.editing = null; declareScreen(); return; }
    var name = c.profile.name, p = c.profile, d = draftOf(name);
    var wrap = el("div", {class: "editor", "data-fighter": i});
    wrap.append(el("h1", {text: name}));
    wrap.append(el("p", {class: "quiet"}, hpText(c) + " HP \u00b7 armour " + p.armour + " \u00b7 damage " + p.damage,
                   chip(c)));
    function update(change) {
      var next = Object.assign(d ? Object.assign({}, d) : emptyDraft(name), change);
      if (change.action && d && d.action && change.action !== d.action) {
        next.target = null;             // a new sign points afresh
      }
      tidy(c, next);
      setDraft(name, next);
      save();
      render();
    }
    if (API.canAct(c)) {
      wrap.append(field(WORDS.speed + ": fingers held up", el("div", {class: "grid speeds"}, SPEEDS.map(function (s) {
        return button([el("span", {class: "big", text: String(s)}), el("span", {class: "small", text: "Effect " + (POINTS - s)})],
                      function () { update({speed: s}); },
                      {pressed: Boolean(d && d.speed === s), "data-speed": s, "aria-label": "Speed " + s});
      }))));
      wrap.append(field("Action: the sign", el("div", {class: "grid two"}, ACTIONS.map(function (a) {
        return button(R.actionName(a), function () { update({action: a}); },
                      {pressed: Boolean(d && d.action === a), "data-action": a});
      }))));
      if (d && d.action) { editorDetails(wrap, cs, c, d, update); }
      var found = problems().by.get(name) || [];
      wrap.append(el("div", {class: "problems-box"},
        found.length ? el("ul", {class: "problems"}, found.map(function (w) { return el("li", {text: w}); }))
                     : (d && d.action && d.speed ? el("p", {class: "quiet", text: "Legal as declared."}) : null)));
      wrap.append(el("div", {class: "row"},
        button("Clear: off-guard", function () { setDraft(name, null); save(); render(); },
               {class: "danger", id: "clear", disabled: !d})));
    } else {
      wrap.append(el("p", {text: name + " is " + statusWord(c) + " and takes no action this round."}));
    }
    wrap.append(adjustBox(c, i));
    app.append(wrap);
    var wrong = API.canAct(c) ? problems().by.get(name) || [] : [];
    setDock([el("div", {class: "dock-problems", role: "status", "aria-live": "polite", id: "dock-problems"},
                wrong.length ? wrong.join(" ") : null),
             button("All fighters", function () { S.editing = null; save(); render(); }, {id: "done"}),
             button("Next fighter \u2192", function () { S.editing = nextFighter(cs, i); save(); render(); },
                    {class: "primary", id: "next"})]);
  }

  function field(label, content) {
    return el("div", {class: "field"}, el("span", {class: "label", text: label}), content);
  }

  /* Keep a draft sensible as the GM changes it: drop what no longer fits. */
  function tidy(c, d) {
    var a = d.action;
    if (a === "defend_self" || a === "escape") { d.target = null; }
    if (d.special) {
      var sp = special(d.special);
      if (!sp || !usable(c, d.special, a)) { d.special = null; }
    }
    if (a === "special" && !d.special) {
      var first = Array.from(c.profile.specials.keys()).filter(function (name) { return usable(c, name, a); })[0];
      if (first) { d.special = first; }
    }
    if (a !== "attack") { d.finish = null; }
    if (a !== "defend_self") { d.redirect_to = null; }
    var gmBonus = (c.profile.conditional.get(a) || []).some(function (pair) { return GM_CONDITIONS.indexOf(pair[0]) >= 0; });
    if (!gmBonus) { d.confirmed = []; }
  }

  /* Whether the special may be named with this action: a called special
   * with its own action; one the GM adjudicates as the Special action, or
   * with the action its data says it rides on (tracker.py's rides_on). */
  function usable(c, name, action) {
    var sp = special(name);
    if (!sp) { return false; }
    if (sp.kind === "gm") { return action === "special" || sp.rides_on === "any" || sp.rides_on === action; }
    return sp.kind === "called" && sp.action === action;
  }

  function editorDetails(wrap, cs, c, d, update) {
    var name = c.profile.name, a = d.action, p = c.profile;
    var others = cs.filter(function (x) { return API.inFight(x) && x.profile.name !== name; });
    var sp = d.special ? special(d.special) : null;
    function targets(list, withSelf, none) {
      var buttons = [];
      if (none) { buttons.push(button(none, function () { update({target: null}); }, {pressed: d.target === null, "data-target": "none"})); }
      if (withSelf) { buttons.push(button("Self", function () { update({target: withSelf}); }, {pressed: d.target === withSelf, "data-target": "self"})); }
      list.forEach(function (x) {
        var word = statusWord(x);
        buttons.push(button([el("span", {class: "name", text: x.profile.name}),
                             el("span", {class: "small", text: hpText(x) + " HP" + (word === "Fighting" ? "" : " \u00b7 " + word)})],
                            function () { update({target: x.profile.name}); },
                            {pressed: d.target === x.profile.name, "data-target": cs.indexOf(x), class: "who-button"}));
      });
      return el("div", {class: "grid two"}, buttons);
    }
    if (a === "attack") {
      wrap.append(field("Target: who the sign points at", targets(others)));
    } else if (a === "defend_other") {
      wrap.append(field("Defending: who the sign points at", targets(others)));
    } else if (a === "recover") {
      var out = others.filter(function (x) { return x.unconscious; });
      wrap.append(field("Recover: yourself, or wake someone Unconscious", targets(out, null, "Self")));
    } else if (a === "special") {
      wrap.append(field("Target of the special", targets(others, name, sp && sp.kind === "gm" ? "No one" : null)));
    }
    var held = Array.from(p.specials.keys());
    var options = held.filter(function (name) { return usable(c, name, a); });
    if (options.length) {
      var buttons = a === "special" ? [] : [button("None", function () { update({special: null}); },
                                                  {pressed: !d.special, "data-special": "none"})];
      options.forEach(function (name) {
        var left = c.uses.has(name) ? c.uses.get(name) : 1;
        var info = special(name);
        buttons.push(button(name + (info.kind === "gm" ? " (GM)" : "") + (left < 1 ? " (used)" : ""),
                            function () { update({special: name}); },
                            {pressed: d.special === name, "data-special": held.indexOf(name)}));
      });
      wrap.append(field("Special called with it", el("div", {class: "grid two"}, buttons)));
    }
    held.forEach(function (heldName) {         // specials that work by themselves with this action
      var info = special(heldName);
      if (info && info.kind === "passive" && info.action === a) {
        wrap.append(el("div", {class: "special-rule passive"},
          el("p", {}, el("strong", {text: heldName + ": "}), info.resolver),
          info.effect === "choose_slot"
            ? el("p", {class: "quiet", text: "Enter the slot they strike in as their Speed (ruling " +
                                             "patient-attacker-slot): ask them before you resolve."}) : null));
      }
    });
    if (sp) {
      wrap.append(el("div", {class: "special-rule"},
        el("p", {}, el("strong", {text: d.special + ": "}), sp.rule),
        el("p", {class: "quiet", text: (sp.kind === "gm" ? "The GM rules on it in its slot: the resolver leaves this " +
                                         "whole action to you." : sp.resolver) + " Usage: " + sp.usage + "."})));
    }
    if (a === "attack") {
      wrap.append(field("Killing blow, called aloud", el("div", {class: "grid three"},
        [[null, "None"], ["knock_out", "Knock out"], ["kill", "Kill"]].map(function (pair) {
          return button(pair[1], function () { update({finish: pair[0]}); },
                        {pressed: d.finish === pair[0], "data-finish": pair[0] || "none"});
        }))));
      wrap.append(el("p", {class: "quiet", text: "It lands only on someone Rattled as the slot begins (a kill also " +
                                                 "needs them on 0 hit points) and only if a point gets through."}));
    }
    if (a === "defend_self" && p.redirects) {
      wrap.append(field("Turn an unhurt attack onto", el("div", {class: "grid two"},
        [button("No one", function () { update({redirect_to: null}); }, {pressed: !d.redirect_to, "data-redirect": "none"})]
          .concat(others.map(function (x) {
            return button(x.profile.name, function () { update({redirect_to: x.profile.name}); },
                          {pressed: d.redirect_to === x.profile.name, "data-redirect": cs.indexOf(x)});
          })))));
    }
    (p.conditional.get(a) || []).forEach(function (pair) {
      if (GM_CONDITIONS.indexOf(pair[0]) < 0) { return; }
      var on = d.confirmed.indexOf(pair[0]) >= 0;
      wrap.append(field("Only you can see this", button("+" + pair[1] + " " + R.conditionWords.get(pair[0]) +
                                                        (on ? ": confirmed" : ": tap to confirm"),
        function () { update({confirmed: on ? [] : [pair[0]]}); }, {pressed: on, "data-confirm": pair[0]})));
    });
    var words = effectWords(c, d);
    if (words) { wrap.append(el("p", {class: "effect", text: words})); }
  }

  function nextFighter(cs, i) {
    for (var k = 1; k <= cs.length; k++) {
      var j = (i + k) % cs.length;
      if (API.canAct(cs[j]) && !draftOf(cs[j].profile.name)) { return j; }
    }
    for (k = 1; k <= cs.length; k++) {
      j = (i + k) % cs.length;
      if (API.canAct(cs[j])) { return j; }
    }
    return null;
  }

  /* Hit points and statuses set by hand: a GM's ruling, logged. */
  function statusToggles(change, c, redraw) {
    return el("div", {class: "toggles"}, ["rattled", "unconscious", "dead", "escaped"].map(function (key, k) {
      return button(STATUS_WORDS[k], function () { change[key] = !change[key]; redraw(); },
                    {pressed: Boolean(change[key]), "data-flag": key});
    }));
  }

  function stepper(change, c, redraw) {
    return el("div", {class: "stepper"},
      button("\u2212", function () { change.hp = Math.max(0, change.hp - 1); redraw(); }, {"aria-label": "One hit point less", "data-step": "-1"}),
      el("output", {text: change.hp + "/" + c.profile.hit_points + " HP"}),
      button("+", function () { change.hp = Math.min(c.profile.hit_points, change.hp + 1); redraw(); }, {"aria-label": "One hit point more", "data-step": "1"}));
  }

  function adjustBox(c, i) {
    var change = {hp: c.hp, rattled: c.rattled, unconscious: c.unconscious, dead: c.dead, escaped: c.escaped};
    var box = el("details", {class: "adjust", id: "adjust"});
    box.append(el("summary", {text: "GM: set hit points or status by hand"}));
    var body = el("div");
    function redraw() {
      body.replaceChildren(
        el("p", {class: "quiet", text: "For what the rules leave to you between rounds (a special that works at the " +
                                      "end of a round, healing outside the fight). It goes into the log."}),
        stepper(change, c, redraw), statusToggles(change, c, redraw),
        el("div", {class: "row"}, button("Apply", function () {
          var after = API.settle(c, change), words = R.changeWords(c, after);
          S.fight.states[i] = API.stateOf(after);
          if (words.length) { S.fight.notes.push({before: roundNumber(), text: "GM ruling: " + words.join("; ") + "."}); }
          box.open = false;
          save();
          render();
        }, {class: "primary", id: "adjust-apply"})));
    }
    redraw();
    box.append(body);
    return box;
  }

  /* The round read aloud: slot by slot, with everyone's state after each. */
  function scriptScreen() {
    var f = S.fight, played, n, h = null;
    if (f.pending) {
      played = advance();
      save();
      if (!f.pending) { h = f.history[f.history.length - 1]; }
      n = h ? h.round : roundNumber();
    } else if (f.history.length) {
      h = f.history[f.history.length - 1];
      played = play(h.before, h.decls, h.rulings);
      n = h.round;
    }
    if (!played) { S.screen = "declare"; declareScreen(); return; }
    var script = el("div", {class: "script", "data-round": n});
    script.append(el("h1", {text: "Round " + n + ": the script"}));
    script.append(el("p", {class: "quiet", text: h ? "Round " + n + " is resolved" +
      (h.seconds ? " (declared in " + clock(h.seconds) + ")" : "") + ". Read it slot by slot."
      : "Read it slot by slot, Speed 5 first. A question for you stops the script until you rule."}));
    if (played.pre.length) {
      script.append(el("section", {class: "slot", "data-slot": "declare"}, el("h2", {text: "Before Speed " + SPEEDS[0]}),
                       lines(played.pre)));
    }
    var previous = fighters(h ? h.before : f.states);
    played.slots.forEach(function (slot) {
      script.append(slotBox(slot.slot, slot.lines, previous, slot.fighters));
      previous = slot.fighters;
    });
    if (played.waiting) {
      var w = played.waiting;
      var box = slotBox(w.slot, w.lines, previous, null);
      box.append(askBox(w, f));
      script.append(box);
      for (var k = SPEEDS.indexOf(w.slot) + 1; k < SPEEDS.length; k++) {
        script.append(el("section", {class: "slot empty", "data-slot": SPEEDS[k]}, el("h2", {text: "Speed " + SPEEDS[k]}),
                         " waits for your ruling."));
      }
      app.append(script);
      setDock([button("Back to declarations", undo, {id: "undo"})]);
      return;
    }
    script.append(el("p", {class: "end", "data-phase": "end", text: played.end.text}));
    script.append(el("h2", {text: "Everyone after round " + n}));
    script.append(rosterTable(played.result.combatants));
    app.append(script);
    setDock([button("Undo round " + n, undo, {id: "undo"}),
             button("Round " + (n + 1) + " \u2192", function () { S.screen = "declare"; S.editing = null; save(); render(); },
                    {class: "primary", id: "next-round"})]);
  }

  function lines(list) {
    return el("ul", {class: "lines"}, list.map(function (line) {
      var gm = line.text.indexOf("GM ruling: ") === 0 || line.text.indexOf("GM adjudicates") >= 0;
      return el("li", {class: line.phase + (gm ? " gm" : ""), "data-phase": line.phase, text: line.text});
    }));
  }

  function slotBox(s, list, before, after) {
    if (!list.length) {
      return el("section", {class: "slot empty", "data-slot": s}, el("h2", {text: "Speed " + s}), ": nobody acts.");
    }
    var box = el("section", {class: "slot", "data-slot": s}, el("h2", {text: "Speed " + s}), lines(list));
    if (after) {
      var changed = after.filter(function (c, i) {
        var b = before[i];
        return !b || b.hp !== c.hp || API.status(b) !== API.status(c) || b.rattled !== c.rattled;
      });
      var out = after.filter(function (c) { return !API.canAct(c); });
      box.append(el("div", {class: "after", "data-after": s},
        el("strong", {text: "After Speed " + s + ": "}),
        changed.length ? changed.map(function (c) {
          return el("span", {class: "state", "data-fighter": after.indexOf(c)}, c.profile.name + " " + hpText(c) + " HP",
                    chip(c));
        }) : "no change.",
        out.length ? el("p", {class: "quiet", text: "Out of the fight: " + out.map(function (c) {
          return c.profile.name + " (" + statusWord(c) + ")";
        }).join(", ")}) : null));
    }
    return box;
  }

  function rosterTable(cs) {
    return el("table", {class: "roster"},
      el("thead", {}, el("tr", {}, el("th", {text: "Fighter"}), el("th", {text: "HP"}), el("th", {text: "Status"}))),
      el("tbody", {}, cs.map(function (c, i) {
        return el("tr", {"data-fighter": i}, el("td", {class: "name", text: c.profile.name}),
                  el("td", {class: "num hp", text: hpText(c)}),
                  el("td", {class: "status " + statusWord(c), text: statusWord(c)}));
      })));
  }

  /* A special the resolver leaves to the GM: what was called, its rule, and
   * a way to set what happened before the round goes on. */
  function askBox(w, f) {
    var cs = w.fighters, index = new Map(cs.map(function (c, i) { return [c.profile.name, i]; }));
    var calls = f.pending.decls.filter(function (d) {
      var sp = d.special ? special(d.special) : null;
      return d.speed === w.slot && sp && sp.kind === "gm";
    });
    if (!UI.ruling || UI.ruling.slot !== w.slot) {
      var involved = [];
      calls.forEach(function (d) {
        [d.actor, d.target].forEach(function (name) {
          if (name && involved.indexOf(name) < 0 && index.has(name)) { involved.push(name); }
        });
      });
      UI.ruling = {slot: w.slot, rows: involved.map(function (name) { return [name, startChange(cs[index.get(name)])]; })};
    }
    var box = el("div", {class: "gm-ask", role: "region", "aria-label": "Your ruling"});
    box.append(el("h2", {text: "Your ruling, GM"}));
    w.questions.forEach(function (q) { box.append(el("p", {class: "question", text: q + "."})); });
    var seen = new Set();
    calls.forEach(function (d) {
      if (seen.has(d.special)) { return; }
      seen.add(d.special);
      box.append(el("div", {class: "special-rule"}, el("p", {}, el("strong", {text: d.special + ": "}),
                                                          special(d.special).rule)));
    });
    box.append(el("p", {class: "quiet", text: "Set what happened as the rule says. Your ruling goes into the log, and " +
                                              "the rest of the round follows from it."}));
    var rows = el("div");
    function later(name) {      // their declaration, if its slot is still to come
      var d = f.pending.decls.find(function (x) { return x.actor === name; });
      return d && d.speed < w.slot ? d : null;
    }
    function redraw() {
      rows.replaceChildren.apply(rows, UI.ruling.rows.map(function (pair) {
        var c = cs[index.get(pair[0])], change = pair[1];
        return el("div", {class: "ruling", "data-ruling": index.get(pair[0])},
          el("h3", {text: pair[0]}), stepper(change, c, redraw), statusToggles(change, c, redraw),
          el("div", {class: "toggles"},
             button("Their Escape fails", function () { change.spoil = !change.spoil; redraw(); },
                    {pressed: Boolean(change.spoil), "data-flag": "spoil"}),
             later(pair[0]) ? button("Their " + R.actionName(later(pair[0]).action) + " at Speed " +
                                     later(pair[0]).speed + " fails",
                                     function () { change.cancel = !change.cancel; redraw(); },
                                     {pressed: Boolean(change.cancel), "data-flag": "cancel"}) : null));
      }));
    }
    redraw();
    box.append(rows);
    var pick = el("select", {"aria-label": "Add someone else to the ruling", id: "ruling-add"});
    pick.append(el("option", {value: "", text: "Someone else is affected\u2026"}));
    cs.forEach(function (c, i) {
      if (!UI.ruling.rows.some(function (pair) { return pair[0] === c.profile.name; })) {
        pick.append(el("option", {value: String(i), text: c.profile.name}));
      }
    });
    pick.addEventListener("change", function () {
      if (pick.value === "") { return; }
      var c = cs[Number(pick.value)];
      UI.ruling.rows.push([c.profile.name, startChange(c)]);
      render();
    });
    box.append(el("div", {class: "field"}, pick));
    box.append(el("div", {class: "row"},
      button("Nothing changes", function () { rule(f, w, []); }, {id: "ruling-none"}),
      button("Apply ruling", function () {
        rule(f, w, UI.ruling.rows.filter(function (pair) {
          var c = cs[index.get(pair[0])], ch = pair[1];
          return ch.spoil || ch.cancel || ch.hp !== c.hp || ch.rattled !== c.rattled || ch.unconscious !== c.unconscious ||
                 ch.dead !== c.dead || ch.escaped !== c.escaped;
        }));
      }, {class: "primary", id: "ruling-apply"})));
    return box;
  }

  function startChange(c) {
    return {hp: c.hp, rattled: c.rattled, unconscious: c.unconscious, dead: c.dead, escaped: c.escaped, spoil: false,
            cancel: false};
  }

  function rule(f, w, changes) {
    f.pending.rulings.push({slot: w.slot, changes: changes.map(function (pair) { return [pair[0], Object.assign({}, pair[1])]; })});
    UI.ruling = null;
    save();
    render();
  }

  /* --- the log ---------------------------------------------------------------- */

  function logText() {
    var f = S.fight, out = [DATA.title + ": fight log", ""];
    if (!f) { return out.concat(["No fight yet."]).join("\n"); }
    var first = fighters(f.history.length ? f.history[0].before : f.states);
    out.push("Fighters: " + first.map(function (c) {
      var faction = BY_NAME.get(c.profile.name).faction;
      return c.profile.name + (faction ? " (" + faction + ")" : "");
    }).join("; "));
    out.push("");
    function notes(n) {
      f.notes.filter(function (x) { return x.before === n; }).forEach(function (x) {
        out.push("Before round " + n + ": " + x.text);
      });
    }
    f.history.forEach(function (h) {
      notes(h.round);
      out.push("Round " + h.round + (h.seconds ? " (declared in " + clock(h.seconds) + ")" : ""));
      out.push("Declarations:");
      fighters(h.before).forEach(function (c) {
        var d = h.decls.find(function (x) { return x.actor === c.profile.name; });
        out.push("  " + c.profile.name + ": " + (d ? describe(d) : API.canAct(c) ? "off-guard" : statusWord(c)));
      });
      h.log.forEach(function (line) { out.push(logLine(line)); });
      out.push("After round " + h.round + ": " + fighters(h.after).map(function (c) {
        return c.profile.name + " " + hpText(c) + " " + statusWord(c);
      }).join("; "));
      out.push("");
    });
    notes(roundNumber());
    if (f.pending) { out.push("Round " + roundNumber() + " is waiting for a GM ruling."); }
    out.push("Rounds so far: " + f.history.length + "; time since the fight began: " +
             clock((now() - f.started) / 1000) + ".");
    return out.join("\n");
  }

  function logScreen() {
    var text = logText();
    app.append(el("h1", {text: "Fight log"}));
    app.append(el("p", {class: "quiet", text: "Every round's declarations, the script as read, your rulings and " +
                                              "everyone's state. Copy it or save it as a text file."}));
    var status = el("p", {role: "status", "aria-live": "polite", id: "copy-status"});
    app.append(el("div", {class: "row"},
      button("Copy", function () { copy(text, status); }, {id: "copy"}),
      button("Save as text", function () { download(text); }, {id: "download"})));
    app.append(status);
    app.append(el("pre", {class: "log", id: "log-text", text: text}));
    if (S.fight) {
      app.append(el("div", {class: "row"}, button("End this fight and start another", function () {
        if (window.confirm("End this fight? Its log is lost unless you copied or saved it.")) {
          S = blank();
          save();
          render();
        }
      }, {class: "danger", id: "new-fight"})));
    }
    setDock([button("Back to the round", function () { S.screen = S.fight ? "declare" : "pick"; save(); render(); },
                    {id: "back", disabled: !S.fight})]);
  }

  function copy(text, status) {
    function fallback() {
      var area = el("textarea", {class: "visually-hidden", readonly: true});
      area.value = text;
      document.body.append(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      area.remove();
      status.textContent = ok ? "Copied." : "Could not copy here: use Save as text.";
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { status.textContent = "Copied."; }, fallback);
    } else {
      fallback();
    }
  }

  function download(text) {
    var url = URL.createObjectURL(new Blob([text], {type: "text/plain;charset=utf-8"}));
    var link = el("a", {href: url, download: "fight-log.txt", class: "visually-hidden"});
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }

  /* --- the clock ----------------------------------------------------------- */

  function tick() {
    var bar = document.getElementById("bar-round");
    if (!S.fight) { bar.textContent = "No fight yet"; return; }
    var f = S.fight;
    var seconds = (now() - f.roundStarted) / 1000;
    var read = S.screen === "script" && !f.pending && f.history.length ? f.history[f.history.length - 1].round : null;
    var text = f.pending ? "Round " + roundNumber() + ": resolving"
             : read !== null ? "Round " + read + ": the script"
             : "Round " + roundNumber() + " \u00b7 " + clock(seconds);
    if (bar.textContent !== text) { bar.textContent = text; }
    var big = document.getElementById("round-clock");
    if (big) { big.textContent = clock(seconds); }
  }

  /* A short tone through WebAudio, made on the countdown's own tap (so a
   * phone allows it); silently nothing where there is no audio. */
  var audio = null;
  function beep(frequency, seconds) {
    try {
      var Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) { return; }
      audio = audio || new Context();
      if (audio.state === "suspended") { audio.resume(); }
      var tone = audio.createOscillator(), volume = audio.createGain(), t = audio.currentTime;
      tone.frequency.value = frequency;
      volume.gain.setValueAtTime(0.25, t);
      volume.gain.exponentialRampToValueAtTime(0.001, t + seconds);
      tone.connect(volume);
      volume.connect(audio.destination);
      tone.start(t);
      tone.stop(t + seconds);
    } catch (e) { /* no sound here: the numbers still show */ }
  }

  function buzz(ms) {
    try { if (navigator.vibrate) { navigator.vibrate(ms); } } catch (e) { /* no vibration here */ }
  }

  /* Each second heard and felt: a short pip for 5 to 1, a long high one for "Declare!". */
  function signal(left) {
    if (left > 0) { beep(660, 0.12); buzz(60); }
    else if (left === 0) { beep(990, 0.5); buzz(400); }
  }

  function countdown() {
    var box = document.getElementById("countdown"), left = 5;
    function show() {
      box.classList.toggle("word", left === 0);
      box.textContent = left > 0 ? String(left) : "Declare!";
      signal(left);
    }
    box.hidden = false;
    show();
    var timer = setInterval(function () {
      left -= 1;
      if (left < -1) {
        clearInterval(timer);
        box.hidden = true;
        return;
      }
      show();
    }, 1000);
    box.onclick = function () { clearInterval(timer); box.hidden = true; };
  }

  document.querySelectorAll(".tab").forEach(function (tab) {
    tab.addEventListener("click", function () {
      S.screen = tab.getAttribute("data-screen");
      if (S.screen === "declare" && S.fight && S.fight.pending) { S.screen = "script"; }
      S.editing = null;
      save();
      render();
    });
  });
  /* The screen stays on while the tracker is shown, where the browser
   * offers a wake lock (secure pages only: file:// counts, plain http on a
   * network does not); the lock ends when the page is hidden, so it is
   * asked for again each time the page comes back. */
  var wake = null;
  function keepAwake() {
    var root = document.documentElement;
    if (!navigator.wakeLock) { root.setAttribute("data-wake-lock", "unavailable"); return; }
    if (wake || document.visibilityState !== "visible") { return; }
    navigator.wakeLock.request("screen").then(function (lock) {
      wake = lock;
      root.setAttribute("data-wake-lock", "held");
      lock.addEventListener("release", function () { wake = null; root.setAttribute("data-wake-lock", "released"); });
    }).catch(function () { root.setAttribute("data-wake-lock", "refused"); });
  }
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("click", keepAwake);

  if (!storageWorks()) { storageRefused(); }
  keepAwake();
  setInterval(tick, 1000);
  render();
}());
