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
 *
 * Every word of the tracker's own is a message: t("...{name}...", {name: x})
 * or tn(singular, plural, n, values), translated from the catalogue
 * render/site/tracker.py embeds in the page's language (resolver.js's translator).
 */
(function () {
  "use strict";

  var API = window.SixesResolver;
  var DATA = JSON.parse(document.getElementById("tracker-data").textContent);
  var R = API.create(DATA.rules, DATA.messages);   /* the page's language (render/site/tracker.py) */
  var t = R.t, tn = R.tn;
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
  /* A status as shown, by its key (API.status, also its CSS class). */
  var STATUS_TEXT = new Map([["Fighting", t("Fighting")], ["Rattled", t("Rattled")], ["Unconscious", t("Unconscious")],
                             ["Dead", t("Dead")], ["Escaped", t("Escaped")]]);
  var STATUS_WORDS = ["Rattled", "Unconscious", "Dead", "Escaped"].map(function (key) { return STATUS_TEXT.get(key); });

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

  /* A fighter's status as shown (API.status is its key: a CSS class). */
  function statusWord(c) {
    return STATUS_TEXT.get(API.status(c));
  }

  function hpText(c) {
    return c.hp + "/" + c.profile.hit_points;
  }

  function chip(c) {
    var key = API.status(c);
    return key === "Fighting" ? null : el("span", {class: "chip " + key, text: STATUS_TEXT.get(key)});
  }

  /* A log line as narration.LogLine prints it. */
  function logLine(line) {
    var where = line.slot ? t("Speed {slot}, {phase}", {slot: line.slot, phase: t(line.phase)})
                          : t(line.phase.charAt(0).toUpperCase() + line.phase.slice(1));
    return t("{where}: {text}", {where: where, text: line.text});
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
      if (!d.speed) { note(pair[0], t("{name}: choose a {speed} (the fingers held up)", {name: pair[0], speed: WORDS.speed})); }
      if (!d.action) { note(pair[0], t("{name}: choose an action (the sign the other hand makes)", {name: pair[0]})); }
    });
    R.validate(fighters(S.fight.states), readyDeclarations()).forEach(function (r) { note(r.actor, r.text); });
    return {by: found, total: total};
  }

  function describe(d) {
    if (!d) { return null; }
    var bits = [];
    bits.push(WORDS.speed + " " + (d.speed || "?"));
    bits.push(d.action ? R.actionWord(d.action) + (d.target ? " \u2192 " + d.target : "") : t("action ?"));
    if (d.special) { bits.push(d.special); }
    if (d.finish) { bits.push(d.finish === "kill" ? t("kill") : t("knock out")); }
    if (d.redirect_to) { bits.push(t("turns onto {name}", {name: d.redirect_to})); }
    if (d.confirmed.length) { bits.push(t("GM confirms beside an ally")); }
    return bits.join(" \u00b7 ");
  }

  /* The Effect this declaration would have, in words (bonuses that are
   * always on; the conditional ones are named). */
  function effectWords(c, d) {
    if (!d || !d.speed || !d.action) { return null; }
    var base = POINTS - d.speed, p = c.profile, plus = 0;
    if (d.action === "recover") { return t("Recover: 1 hit point back, whatever the Speed."); }
    if (d.action === "escape") { return t("Escape: no Effect; it works unless they are hurt or a special lands first."); }
    if (d.action === "attack") { plus = p.attack_plus; }
    if (d.action === "defend_other") { plus = p.defend_other_plus; }
    if (d.action === "defend_self") { plus = p.defend_self_plus; }
    if (d.action === "special") { plus = p.special_plus; }
    var words = t("Effect {total}", {total: base + (plus ? " + " + plus + " = " + (base + plus) : "")});
    if (d.action === "defend_self" && d.special) {
      words = t("{effect}, doubled by {special} = {total}", {effect: words, special: d.special, total: 2 * (base + plus)});
    }
    var extra = (p.conditional.get(d.action) || []).map(function (pair) {
      return "+" + pair[1] + " " + t(R.conditionWords.get(pair[0]));
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
    app.append(el("h1", {text: f ? t("Fighters: add someone to the fight") : t("Who is in the fight?")}));
    app.append(el("p", {class: "quiet", text: f
      ? t("New fighters may join between rounds. Nobody leaves except by an Escape.")
      : t("Tap a faction to take all of it, or tap fighters one by one.")}));
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
        el("h2", {text: group.name || t("No faction")}),
        button(!free.length ? t("All in") : all ? t("None of them") : t("All {count}", {count: free.length}), function () {
          free.forEach(function (c) { if (all) { picked.delete(c.name); } else { picked.add(c.name); } });
          S.picked = CAST.map(function (c) { return c.name; }).filter(function (n) { return picked.has(n); });
          save();
          render();
        }, {class: "faction-all", disabled: !free.length, pressed: all})));
      group.members.forEach(function (c) {
        var p = c.profile, taken = inFight.has(c.name), on = taken || picked.has(c.name);
        var figures = figuresText(p.hit_points + "", p);
        var held = p.specials.map(function (pair) { return pair[0]; });
        section.append(button([
          el("span", {class: "box", "aria-hidden": "true", text: on ? "\u2713" : ""}),
          el("span", {class: "who"}, el("span", {class: "name", text: c.name}),
             el("span", {class: "figures", text: figures + (held.length ? " \u00b7 " + held.join(", ") : "") +
                                                  (taken ? " \u00b7 " + t("in the fight") : "")}))
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
      setDock([button(t("Start the fight with {count}", {count: chosen.length}), startFight,
                      {class: "primary", id: "start", disabled: chosen.length < 2})]);
    } else {
      setDock([button(chosen.length ? t("Add {count} to the fight", {count: chosen.length}) : t("Back to the round"), function () {
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
    f.notes.push({before: roundNumber(), text: tn("{names} joins the fight.", "{names} join the fight.", names.length,
                                                  {names: R.and(names)})});
    S.picked = [];
  }

  /* "4 HP · armour 1 · damage 0": a fighter's figures, `hp` as shown. */
  function figuresText(hp, p) {
    return t("{hp} HP \u00b7 armour {armour} \u00b7 damage {damage}", {hp: hp, armour: p.armour, damage: p.damage});
  }

  /* The round: every fighter, what they declared, what is wrong. */
  function declareScreen() {
    var f = S.fight;
    if (f.pending) { S.screen = "script"; scriptScreen(); return; }
    var cs = fighters(f.states), found = problems();
    var n = roundNumber();
    app.append(el("h1", {text: t("Round {round}: declarations", {round: n})}));
    app.append(el("div", {class: "timer-row"},
      el("div", {class: "clock", id: "round-clock", "aria-label": t("Time this round")}, clock((now() - f.roundStarted) / 1000)),
      button(t("5-second countdown"), countdown, {id: "countdown-start"})));
    if (f.history.length) {
      app.append(button(t("Read round {round}'s script again", {round: n - 1}), function () { S.screen = "script"; save(); render(); },
                        {class: "link", id: "last-script"}));
    }
    var able = cs.filter(API.canAct), declared = able.filter(function (c) { return draftOf(c.profile.name); });
    app.append(el("p", {class: "quiet", id: "declared-count",
                        text: t("{declared} of {able} declared; anyone left is off-guard.",
                                {declared: declared.length, able: able.length}) +
                              (found.total ? " " + t("{count} to fix.", {count: found.total}) : "")}));
    cs.forEach(function (c, i) {
      var name = c.profile.name, d = draftOf(name), wrong = found.by.get(name) || [];
      var said = API.canAct(c) ? (describe(d) || t("Not declared: off-guard"))
                               : t("{status}: no action", {status: statusWord(c)});
      var row = button([
        el("span", {class: "top"}, el("span", {class: "name", text: name}),
           el("span", {class: "hp"}, t("{hp} HP", {hp: hpText(c)}), chip(c))),
        el("span", {class: "said" + (d ? " set" : ""), text: said}),
        wrong.length ? el("ul", {class: "problems"}, wrong.map(function (w) { return el("li", {text: w}); })) : null
      ], function () { S.editing = i; save(); render(); },
      {class: "fighter" + (API.canAct(c) ? "" : " cannot") + (wrong.length ? " wrong" : ""), "data-fighter": i});
      app.append(row);
    });
    var dock = [];
    if (found.total) {
      var first = cs.findIndex(function (c) { return found.by.has(c.profile.name); });
      dock.push(button(t("To fix: {problem}", {problem: found.by.get(cs[first].profile.name)[0]}), function () {
        S.editing = first;
        save();
        render();
      }, {class: "dock-problems link", id: "first-problem"}));
    }
    if (f.history.length) {
      dock.push(button(t("Undo round {round}", {round: n - 1}), undo, {id: "undo"}));
    }
    dock.push(button(t("Resolve round {round}", {round: n}), resolveRound, {class: "primary", id: "resolve", disabled: found.total > 0}));
    setDock(dock);
  }

  function editorScreen(i) {
    var f = S.fight, cs = fighters(f.states), c = cs[i];
    if (!c) { S.editing = null; declareScreen(); return; }
    var name = c.profile.name, p = c.profile, d = draftOf(name);
    var wrap = el("div", {class: "editor", "data-fighter": i});
    wrap.append(el("h1", {text: name}));
    wrap.append(el("p", {class: "quiet"}, figuresText(hpText(c), p), chip(c)));
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
      wrap.append(field(t("{speed}: fingers held up", {speed: WORDS.speed}), el("div", {class: "grid speeds"}, SPEEDS.map(function (s) {
        return button([el("span", {class: "big", text: String(s)}),
                       el("span", {class: "small", text: t("Effect {total}", {total: POINTS - s})})],
                      function () { update({speed: s}); },
                      {pressed: Boolean(d && d.speed === s), "data-speed": s, "aria-label": t("Speed {speed}", {speed: s})});
      }))));
      wrap.append(field(t("Action: the sign"), el("div", {class: "grid two"}, ACTIONS.map(function (a) {
        return button(R.actionWord(a), function () { update({action: a}); },
                      {pressed: Boolean(d && d.action === a), "data-action": a});
      }))));
      if (d && d.action) { editorDetails(wrap, cs, c, d, update); }
      var found = problems().by.get(name) || [];
      wrap.append(el("div", {class: "problems-box"},
        found.length ? el("ul", {class: "problems"}, found.map(function (w) { return el("li", {text: w}); }))
                     : (d && d.action && d.speed ? el("p", {class: "quiet", text: t("Legal as declared.")}) : null)));
      wrap.append(el("div", {class: "row"},
        button(t("Clear: off-guard"), function () { setDraft(name, null); save(); render(); },
               {class: "danger", id: "clear", disabled: !d})));
    } else {
      wrap.append(el("p", {text: t("{name} is {status} and takes no action this round.", {name: name, status: statusWord(c)})}));
    }
    wrap.append(adjustBox(c, i));
    app.append(wrap);
    var wrong = API.canAct(c) ? problems().by.get(name) || [] : [];
    setDock([el("div", {class: "dock-problems", role: "status", "aria-live": "polite", id: "dock-problems"},
                wrong.length ? wrong.join(" ") : null),
             button(t("All fighters"), function () { S.editing = null; save(); render(); }, {id: "done"}),
             button(t("Next fighter \u2192"), function () { S.editing = nextFighter(cs, i); save(); render(); },
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
      if (withSelf) { buttons.push(button(t("Self"), function () { update({target: withSelf}); }, {pressed: d.target === withSelf, "data-target": "self"})); }
      list.forEach(function (x) {
        var fighting = API.status(x) === "Fighting", shown = t("{hp} HP", {hp: hpText(x)});
        buttons.push(button([el("span", {class: "name", text: x.profile.name}),
                             el("span", {class: "small", text: shown + (fighting ? "" : " \u00b7 " + statusWord(x))})],
                            function () { update({target: x.profile.name}); },
                            {pressed: d.target === x.profile.name, "data-target": cs.indexOf(x), class: "who-button"}));
      });
      return el("div", {class: "grid two"}, buttons);
    }
    if (a === "attack") {
      wrap.append(field(t("Target: who the sign points at"), targets(others)));
    } else if (a === "defend_other") {
      wrap.append(field(t("Defending: who the sign points at"), targets(others)));
    } else if (a === "recover") {
      var out = others.filter(function (x) { return x.unconscious; });
      wrap.append(field(t("Recover: yourself, or wake someone Unconscious"), targets(out, null, t("Self"))));
    } else if (a === "special") {
      wrap.append(field(t("Target of the special"), targets(others, name, sp && sp.kind === "gm" ? t("No one") : null)));
    }
    var held = Array.from(p.specials.keys());
    var options = held.filter(function (name) { return usable(c, name, a); });
    if (options.length) {
      var buttons = a === "special" ? [] : [button(t("None"), function () { update({special: null}); },
                                                  {pressed: !d.special, "data-special": "none"})];
      options.forEach(function (name) {
        var left = c.uses.has(name) ? c.uses.get(name) : 1;
        var info = special(name);
        buttons.push(button(name + (info.kind === "gm" ? " " + t("(GM)") : "") + (left < 1 ? " " + t("(used)") : ""),
                            function () { update({special: name}); },
                            {pressed: d.special === name, "data-special": held.indexOf(name)}));
      });
      wrap.append(field(t("Special called with it"), el("div", {class: "grid two"}, buttons)));
    }
    held.forEach(function (heldName) {         // specials that work by themselves with this action
      var info = special(heldName);
      if (info && info.kind === "passive" && info.action === a) {
        wrap.append(el("div", {class: "special-rule passive"},
          el("p", {}, el("strong", {text: heldName + ": "}), info.resolver),
          info.effect === "choose_slot"
            ? el("p", {class: "quiet", text: t("Enter the slot they strike in as their Speed (ruling " +
                                               "patient-attacker-slot): ask them before you resolve.")}) : null));
      }
    });
    if (sp) {
      wrap.append(el("div", {class: "special-rule"},
        el("p", {}, el("strong", {text: d.special + ": "}), sp.rule),
        el("p", {class: "quiet", text: (sp.kind === "gm" ? t("The GM rules on it in its slot: the resolver leaves " +
                                                           "this whole action to you.") : sp.resolver) + " " +
                                       t("Usage: {usage}.", {usage: t(sp.usage)})})));
    }
    if (a === "attack") {
      wrap.append(field(t("Killing blow, called aloud"), el("div", {class: "grid three"},
        [[null, t("None")], ["knock_out", t("Knock out")], ["kill", t("Kill")]].map(function (pair) {
          return button(pair[1], function () { update({finish: pair[0]}); },
                        {pressed: d.finish === pair[0], "data-finish": pair[0] || "none"});
        }))));
      wrap.append(el("p", {class: "quiet", text: t("It lands only on someone Rattled as the slot begins (a kill also " +
                                                   "needs them on 0 hit points) and only if a point gets through.")}));
    }
    if (a === "defend_self" && p.redirects) {
      wrap.append(field(t("Turn an unhurt attack onto"), el("div", {class: "grid two"},
        [button(t("No one"), function () { update({redirect_to: null}); }, {pressed: !d.redirect_to, "data-redirect": "none"})]
          .concat(others.map(function (x) {
            return button(x.profile.name, function () { update({redirect_to: x.profile.name}); },
                          {pressed: d.redirect_to === x.profile.name, "data-redirect": cs.indexOf(x)});
          })))));
    }
    (p.conditional.get(a) || []).forEach(function (pair) {
      if (GM_CONDITIONS.indexOf(pair[0]) < 0) { return; }
      var on = d.confirmed.indexOf(pair[0]) >= 0;
      var bonus = "+" + pair[1] + " " + t(R.conditionWords.get(pair[0]));
      wrap.append(field(t("Only you can see this"), button(on ? t("{bonus}: confirmed", {bonus: bonus})
                                                            : t("{bonus}: tap to confirm", {bonus: bonus}),
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
      button("\u2212", function () { change.hp = Math.max(0, change.hp - 1); redraw(); }, {"aria-label": t("One hit point less"), "data-step": "-1"}),
      el("output", {text: t("{hp} HP", {hp: change.hp + "/" + c.profile.hit_points})}),
      button("+", function () { change.hp = Math.min(c.profile.hit_points, change.hp + 1); redraw(); }, {"aria-label": t("One hit point more"), "data-step": "1"}));
  }

  function adjustBox(c, i) {
    var change = {hp: c.hp, rattled: c.rattled, unconscious: c.unconscious, dead: c.dead, escaped: c.escaped};
    var box = el("details", {class: "adjust", id: "adjust"});
    box.append(el("summary", {text: t("GM: set hit points or status by hand")}));
    var body = el("div");
    function redraw() {
      body.replaceChildren(
        el("p", {class: "quiet", text: t("For what the rules leave to you between rounds (a special that works at " +
                                        "the end of a round, healing outside the fight). It goes into the log.")}),
        stepper(change, c, redraw), statusToggles(change, c, redraw),
        el("div", {class: "row"}, button(t("Apply"), function () {
          var after = API.settle(c, change), words = R.changeWords(c, after);
          S.fight.states[i] = API.stateOf(after);
          if (words.length) {
            S.fight.notes.push({before: roundNumber(), text: t("GM ruling: {changes}.", {changes: words.reduce(R.clause)})});
          }
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
    script.append(el("h1", {text: t("Round {round}: the script", {round: n})}));
    script.append(el("p", {class: "quiet", text: !h
      ? t("Read it slot by slot, Speed 5 first. A question for you stops the script until you rule.")
      : h.seconds ? t("Round {round} is resolved (declared in {time}). Read it slot by slot.", {round: n, time: clock(h.seconds)})
      : t("Round {round} is resolved. Read it slot by slot.", {round: n})}));
    if (played.pre.length) {
      script.append(el("section", {class: "slot", "data-slot": "declare"}, el("h2", {text: t("Before Speed {speed}", {speed: SPEEDS[0]})}),
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
        script.append(el("section", {class: "slot empty", "data-slot": SPEEDS[k]},
                         el("h2", {text: t("Speed {speed}", {speed: SPEEDS[k]})}), " " + t("waits for your ruling.")));
      }
      app.append(script);
      setDock([button(t("Back to declarations"), undo, {id: "undo"})]);
      return;
    }
    script.append(el("p", {class: "end", "data-phase": "end", text: played.end.text}));
    script.append(el("h2", {text: t("Everyone after round {round}", {round: n})}));
    script.append(rosterTable(played.result.combatants));
    app.append(script);
    setDock([button(t("Undo round {round}", {round: n}), undo, {id: "undo"}),
             button(t("Round {round} \u2192", {round: n + 1}), function () { S.screen = "declare"; S.editing = null; save(); render(); },
                    {class: "primary", id: "next-round"})]);
  }

  function lines(list) {
    return el("ul", {class: "lines"}, list.map(function (line) {
      // Translators: the words every line the GM must rule on holds (the log's "GM adjudicates: ...").
      var gm = line.text.indexOf(t("GM ruling: {changes}.").split("{changes}")[0]) === 0 ||
               line.text.indexOf(t("GM adjudicates")) >= 0;
      return el("li", {class: line.phase + (gm ? " gm" : ""), "data-phase": line.phase, text: line.text});
    }));
  }

  function slotBox(s, list, before, after) {
    if (!list.length) {
      return el("section", {class: "slot empty", "data-slot": s}, el("h2", {text: t("Speed {speed}", {speed: s})}),
                t(": nobody acts."));
    }
    var box = el("section", {class: "slot", "data-slot": s}, el("h2", {text: t("Speed {speed}", {speed: s})}), lines(list));
    if (after) {
      var changed = after.filter(function (c, i) {
        var b = before[i];
        return !b || b.hp !== c.hp || API.status(b) !== API.status(c) || b.rattled !== c.rattled;
      });
      var out = after.filter(function (c) { return !API.canAct(c); });
      box.append(el("div", {class: "after", "data-after": s},
        el("strong", {text: t("After Speed {speed}: ", {speed: s})}),
        changed.length ? changed.map(function (c) {
          return el("span", {class: "state", "data-fighter": after.indexOf(c)},
                    c.profile.name + " " + t("{hp} HP", {hp: hpText(c)}), chip(c));
        }) : t("no change."),
        out.length ? el("p", {class: "quiet", text: t("Out of the fight: {fighters}", {fighters: out.map(function (c) {
          return c.profile.name + " (" + statusWord(c) + ")";
        }).join(", ")})}) : null));
    }
    return box;
  }

  function rosterTable(cs) {
    return el("table", {class: "roster"},
      el("thead", {}, el("tr", {}, el("th", {text: t("Fighter")}), el("th", {text: t("HP")}), el("th", {text: t("Status")}))),
      el("tbody", {}, cs.map(function (c, i) {
        return el("tr", {"data-fighter": i}, el("td", {class: "name", text: c.profile.name}),
                  el("td", {class: "num hp", text: hpText(c)}),
                  el("td", {class: "status " + API.status(c), text: statusWord(c)}));
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
    var box = el("div", {class: "gm-ask", role: "region", "aria-label": t("Your ruling")});
    box.append(el("h2", {text: t("Your ruling, GM")}));
    w.questions.forEach(function (q) { box.append(el("p", {class: "question", text: q + "."})); });
    var seen = new Set();
    calls.forEach(function (d) {
      if (seen.has(d.special)) { return; }
      seen.add(d.special);
      box.append(el("div", {class: "special-rule"}, el("p", {}, el("strong", {text: d.special + ": "}),
                                                          special(d.special).rule)));
    });
    box.append(el("p", {class: "quiet", text: t("Set what happened as the rule says. Your ruling goes into the log, " +
                                                "and the rest of the round follows from it.")}));
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
             button(t("Their Escape fails"), function () { change.spoil = !change.spoil; redraw(); },
                    {pressed: Boolean(change.spoil), "data-flag": "spoil"}),
             later(pair[0]) ? button(t("Their {action} at Speed {speed} fails",
                                       {action: R.actionWord(later(pair[0]).action), speed: later(pair[0]).speed}),
                                     function () { change.cancel = !change.cancel; redraw(); },
                                     {pressed: Boolean(change.cancel), "data-flag": "cancel"}) : null));
      }));
    }
    redraw();
    box.append(rows);
    var pick = el("select", {"aria-label": t("Add someone else to the ruling"), id: "ruling-add"});
    pick.append(el("option", {value: "", text: t("Someone else is affected\u2026")}));
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
      button(t("Nothing changes"), function () { rule(f, w, []); }, {id: "ruling-none"}),
      button(t("Apply ruling"), function () {
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
    var f = S.fight, out = [t("{title}: fight log", {title: DATA.title}), ""];
    if (!f) { return out.concat([t("No fight yet.")]).join("\n"); }
    var first = fighters(f.history.length ? f.history[0].before : f.states);
    out.push(t("Fighters: {fighters}", {fighters: first.map(function (c) {
      var faction = BY_NAME.get(c.profile.name).faction;
      return c.profile.name + (faction ? " (" + faction + ")" : "");
    }).join("; ")}));
    out.push("");
    function notes(n) {
      f.notes.filter(function (x) { return x.before === n; }).forEach(function (x) {
        out.push(t("Before round {round}: {note}", {round: n, note: x.text}));
      });
    }
    f.history.forEach(function (h) {
      notes(h.round);
      out.push(h.seconds ? t("Round {round} (declared in {time})", {round: h.round, time: clock(h.seconds)})
                         : t("Round {round}", {round: h.round}));
      out.push(t("Declarations:"));
      fighters(h.before).forEach(function (c) {
        var d = h.decls.find(function (x) { return x.actor === c.profile.name; });
        // Not inside the t() below: Babel's extractor misses a message nested in another's arguments.
        var declared = d ? describe(d) : API.canAct(c) ? t("off-guard") : statusWord(c);
        out.push("  " + t("{name}: {declared}", {name: c.profile.name, declared: declared}));
      });
      h.log.forEach(function (line) { out.push(logLine(line)); });
      out.push(t("After round {round}: {fighters}", {round: h.round, fighters: fighters(h.after).map(function (c) {
        return c.profile.name + " " + hpText(c) + " " + statusWord(c);
      }).join("; ")}));
      out.push("");
    });
    notes(roundNumber());
    if (f.pending) { out.push(t("Round {round} is waiting for a GM ruling.", {round: roundNumber()})); }
    out.push(t("Rounds so far: {rounds}; time since the fight began: {time}.",
               {rounds: f.history.length, time: clock((now() - f.started) / 1000)}));
    return out.join("\n");
  }

  function logScreen() {
    var text = logText();
    app.append(el("h1", {text: t("Fight log")}));
    app.append(el("p", {class: "quiet", text: t("Every round's declarations, the script as read, your rulings and " +
                                                "everyone's state. Copy it or save it as a text file.")}));
    var status = el("p", {role: "status", "aria-live": "polite", id: "copy-status"});
    app.append(el("div", {class: "row"},
      button(t("Copy"), function () { copy(text, status); }, {id: "copy"}),
      button(t("Save as text"), function () { download(text); }, {id: "download"})));
    app.append(status);
    app.append(el("pre", {class: "log", id: "log-text", text: text}));
    if (S.fight) {
      app.append(el("div", {class: "row"}, button(t("End this fight and start another"), function () {
        if (window.confirm(t("End this fight? Its log is lost unless you copied or saved it."))) {
          S = blank();
          save();
          render();
        }
      }, {class: "danger", id: "new-fight"})));
    }
    setDock([button(t("Back to the round"), function () { S.screen = S.fight ? "declare" : "pick"; save(); render(); },
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
      status.textContent = ok ? t("Copied.") : t("Could not copy here: use Save as text.");
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { status.textContent = t("Copied."); }, fallback);
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
    if (!S.fight) { bar.textContent = t("No fight yet"); return; }
    var f = S.fight;
    var seconds = (now() - f.roundStarted) / 1000;
    var read = S.screen === "script" && !f.pending && f.history.length ? f.history[f.history.length - 1].round : null;
    var text = f.pending ? t("Round {round}: resolving", {round: roundNumber()})
             : read !== null ? t("Round {round}: the script", {round: read})
             : t("Round {round} \u00b7 {time}", {round: roundNumber(), time: clock(seconds)});
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
      var tone = audio.createOscillator(), volume = audio.createGain(), at = audio.currentTime;
      tone.frequency.value = frequency;
      volume.gain.setValueAtTime(0.25, at);
      volume.gain.exponentialRampToValueAtTime(0.001, at + seconds);
      tone.connect(volume);
      volume.connect(audio.destination);
      tone.start(at);
      tone.stop(at + seconds);
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
      box.textContent = left > 0 ? String(left) : t("Declare!");
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
