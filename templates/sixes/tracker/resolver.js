/* The Sixes round resolver for the GM's fight tracker: a step-for-step port
 * of generator/systems/sixes/resolver.py, so the tracker gives the same
 * results and the same words as every other part of Sixes Press.
 *
 * tests/test_sixes_tracker_equality.py plays thousands of random rounds
 * through both and fails on any difference in state (after every slot) or
 * in the log. Change the two together, or that test will say where they part.
 *
 * Everything named by the data (fighters, specials) is looked up in Maps,
 * never as a property of a plain object: a fighter called "__proto__" or
 * "constructor" is only a name here. The constants and words that come from
 * the Python rules (Speeds, action names, the specials vocabulary) arrive in
 * `rules`, made by generator/systems/sixes/tracker.py.
 *
 * The log is in the page's language: every sentence is a message marked
 * with t()/tn() whose id is the English of narration.py's _() (so one
 * translation serves both), filled in with {name} placeholders. `translator`
 * makes t and tn from the catalogue render/site/tracker.py embeds; with none, the
 * English ids are the text.
 *
 * Works as a browser script (window.SixesResolver) and as a Node module.
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.SixesResolver = api;
  }
}(this, function () {
  "use strict";

  var FINISHES = ["kill", "knock_out"];
  var RATTLED_ACTIONS = ["escape", "recover"];
  var NEEDS_TARGET = ["attack", "defend_other"];
  var SELF_ONLY = ["defend_self", "escape"];

  function has(list, item) {
    return list.indexOf(item) >= 0;
  }

  /* The plural rules a catalogue may name (gettext's, as scripts/extract-messages
   * writes them): which of two forms a number takes. A fixed set, never eval. */
  var PLURAL_RULES = {
    "n != 1": function (n) { return n !== 1 ? 1 : 0; },
    "n > 1": function (n) { return n > 1 ? 1 : 0; }
  };

  /* The form of a count by a language's table (core/i18n.py script_catalogue):
   * 0 to 999 as listed, from 1000 on as 1000 plus its last three digits. */
  function tabled(forms) {
    return function (n) {
      n = Math.abs(Math.trunc(n));
      return forms[n < 1000 ? n : 1000 + n % 1000];
    };
  }

  /* {t, tn, and, clause} over a catalogue {plural, forms, messages: [[id, text]],
   * plurals: [[singular, [form0, form1, ...]]]}: a named rule, or a table of
   * forms for a language that counts otherwise (Polish); t and tn fill {name}
   * placeholders in one pass, as Python's str.format does. */
  function translator(words) {
    words = words || {};
    var one = new Map(words.messages || []), many = new Map(words.plurals || []);
    var form = words.forms ? tabled(words.forms) : PLURAL_RULES[words.plural || "n != 1"];
    if (!form) { throw new Error("unknown plural rule: " + words.plural); }
    function fill(text, values) {
      return text.replace(/\{(\w+)\}/g, function (whole, key) {
        return values && Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole;
      });
    }
    function t(id, values) {
      var text = one.get(id);
      return fill(text === undefined ? id : text, values);
    }
    function tn(singular, plural, n, values) {
      var forms = many.get(singular);
      var text = forms === undefined ? (n !== 1 ? plural : singular) : forms[form(n)];
      return fill(text, values);
    }
    function and(names) {
      names = names.slice();
      return names.length === 1 ? names[0] :
        t("{names} and {last}", {names: names.slice(0, -1).join(", "), last: names[names.length - 1]});
    }
    function clause(first, then) {
      return t("{first}; {then}", {first: first, then: then});
    }
    return {t: t, tn: tn, and: and, clause: clause};
  }

  function numeric(a, b) {
    return a - b;
  }

  /* --- data in: lists of pairs become Maps --------------------------------- */

  function profileOf(data) {
    var specials = new Map(), conditional = new Map();
    data.specials.forEach(function (pair) { specials.set(pair[0], pair[1]); });
    data.conditional.forEach(function (pair) { conditional.set(pair[0], pair[1]); });
    return {
      name: data.name, hit_points: data.hit_points, armour: data.armour, damage: data.damage,
      specials: specials, redirects: data.redirects, chooses_slot: data.chooses_slot,
      attack_plus: data.attack_plus, defend_other_plus: data.defend_other_plus,
      defend_self_plus: data.defend_self_plus, special_plus: data.special_plus, conditional: conditional
    };
  }

  function combatant(profile, state) {
    var uses = new Map();
    state.uses.forEach(function (pair) { uses.set(pair[0], pair[1]); });
    return {profile: profile, hp: state.hp, rattled: state.rattled, unconscious: state.unconscious,
            dead: state.dead, escaped: state.escaped, uses: uses};
  }

  /* A combatant as plain data, the shape tracker.py writes (uses as pairs). */
  function stateOf(c) {
    return {name: c.profile.name, hp: c.hp, rattled: c.rattled, unconscious: c.unconscious, dead: c.dead,
            escaped: c.escaped, uses: Array.from(c.uses.entries())};
  }

  function declaration(d) {
    return {actor: d.actor, action: d.action, speed: d.speed, target: d.target == null ? null : d.target,
            special: d.special == null ? null : d.special, finish: d.finish == null ? null : d.finish,
            redirect_to: d.redirect_to == null ? null : d.redirect_to, confirmed: (d.confirmed || []).slice()};
  }

  function status(c) {
    if (c.dead) { return "Dead"; }
    if (c.escaped) { return "Escaped"; }
    if (c.unconscious) { return "Unconscious"; }
    if (c.rattled) { return "Rattled"; }
    return "Fighting";
  }

  function canAct(c) {
    return !(c.dead || c.escaped || c.unconscious);
  }

  function inFight(c) {
    return !(c.dead || c.escaped);
  }

  function finishable(rattled, hp, finish) {
    return rattled && (finish === "knock_out" || hp === 0);
  }

  function create(R, words) {
    var T = translator(words), t = T.t, tn = T.tn, and = T.and, clause = T.clause;
    var ACTION_NAMES = new Map(R.action_names);
    var EFFECTS = new Map(R.effects);
    var CONDITION_WORDS = new Map(R.condition_words);
    var CONDITIONS = R.conditions;
    var GM_CONDITIONS = R.gm_conditions;
    var SPEEDS = R.speeds;
    var ACTION_POINTS = R.action_points;
    var MIN_SPEED = Math.min.apply(null, SPEEDS), MAX_SPEED = Math.max.apply(null, SPEEDS);
    var RATTLED_MAX_SPEED = R.rattled_max_speed;
    var RECOVER_HIT_POINTS = R.recover_hit_points;

    function actionName(key) {
      return ACTION_NAMES.get(key);
    }

    /* An action's name as the log and the reasons print it, in the page's language. */
    function actionWord(key) {
      return t(ACTION_NAMES.get(key));
    }

    function indexOf(cs) {
      var index = new Map();
      cs.forEach(function (c, i) { index.set(c.profile.name, i); });
      return index;
    }

    /* Who may not act, or be aimed at, by status(): one whole message each
     * (declarations.CANNOT_ACT and TARGET_GONE). */
    function cannotAct(c, who) {
      var v = {name: who};
      if (c.dead) { return t("{name} is Dead and cannot act", v); }
      return c.escaped ? t("{name} is Escaped and cannot act", v) : t("{name} is Unconscious and cannot act", v);
    }

    function targetGone(c, who, aim) {
      var v = {name: who, target: aim};
      return c.dead ? t("{name}: target {target} is Dead and not in the fight", v) :
        t("{name}: target {target} is Escaped and not in the fight", v);
    }

    /* Every reason a set of declarations is illegal, as {actor, text}, in
     * the order resolver.validate lists them, in the same words (the
     * messages of declarations.py). Names the roster lacks are reported
     * without the Python's did-you-mean: the tracker only offers names from
     * the roster. */
    function validate(cs, declarations, decl, bySpeed) {
      var index = indexOf(cs), reasons = [];
      if (!decl) {
        decl = cs.map(function () { return null; });
        bySpeed = [[], [], [], [], [], []];
      }
      function say(who, text) { reasons.push({actor: who, text: text}); }
      declarations.forEach(function (d) {
        var who = d.actor, i = index.get(who);
        if (i === undefined) {
          say(who, t("{name} is not in this fight", {name: who}));
          return;
        }
        var c = cs[i];
        if (decl[i] !== null) {
          say(who, t("{name} declared twice; a declaration cannot be changed", {name: who}));
          return;
        }
        decl[i] = d;
        if (!canAct(c)) {
          say(who, cannotAct(c, who));
          return;
        }
        var action = d.action, speed = d.speed;
        if (!ACTION_NAMES.has(action)) {
          say(who, t("{name}: unknown action '{action}' (one of {actions})",
                     {name: who, action: action, actions: R.action_keys.join(", ")}));
          return;
        }
        if (!Number.isInteger(speed) || !has(SPEEDS, speed)) {
          say(who, t("{name}: Speed {speed} is impossible; Speed is {lowest} to {highest}, because Speed and " +
                     "Effect share {points} points and each needs at least 1",
                     {name: who, speed: speed, lowest: MIN_SPEED, highest: MAX_SPEED, points: ACTION_POINTS}));
          return;
        }
        bySpeed[speed].push(i);
        var words = {name: who, action: actionWord(action)};
        if (c.rattled) {
          if (!has(RATTLED_ACTIONS, action)) {
            say(who, t("{name} is Rattled and may only Escape or Recover, not {action}", words));
          } else if (speed > RATTLED_MAX_SPEED) {
            say(who, t("{name} is Rattled and may not act faster than Speed {speed}",
                       {name: who, speed: RATTLED_MAX_SPEED}));
          }
        }
        if (!checkTarget(cs, index, d, say)) { return; }
        if (d.special !== null || action === "special") {
          checkSpecial(c, d).forEach(function (text) { say(who, text); });
        }
        checkExtras(cs, index, c, d, say);
      });
      return reasons;
    }

    /* Whether the target is someone the action may be aimed at; false (stop
     * checking this declaration) when the target is not in the fight. */
    function checkTarget(cs, index, d, say) {
      var who = d.actor, action = d.action, aim = d.target, words = {name: who, action: actionWord(action)};
      if (aim === null) {
        if (has(NEEDS_TARGET, action)) { say(who, t("{name}: {action} needs a target", words)); }
        return true;
      }
      var ti = index.get(aim);
      var target = ti === undefined ? null : cs[ti];
      if (target === null || !inFight(target)) {
        say(who, target === null ? t("{name}: target {target} is not in this fight", {name: who, target: aim})
                                 : targetGone(target, who, aim));
        return false;
      }
      if (aim === who) {
        if (has(NEEDS_TARGET, action)) {
          say(who, action === "defend_other" ?
            t("{name}: Defend Other must be aimed at someone else (use Defend Self)", words) :
            t("{name}: {action} must be aimed at someone else", words));
        }
      } else if (has(SELF_ONLY, action)) {
        say(who, t("{name}: {action} can only be aimed at yourself", words));
      } else if (action === "recover" && !target.unconscious) {
        say(who, t("{name}: Recover on someone else works only on an Unconscious character, and {target} is " +
                   "not Unconscious", {name: who, target: aim}));
      }
      return true;
    }

    /* A finishing blow, conditions the GM confirms, and a redirect. */
    function checkExtras(cs, index, c, d, say) {
      var who = d.actor, action = d.action;
      if (d.finish !== null && (!has(FINISHES, d.finish) || action !== "attack")) {
        say(who, t("{name}: a killing blow ('kill' or 'knock_out') can only be called with an Attack", {name: who}));
      }
      d.confirmed.forEach(function (when) {
        if (!has(GM_CONDITIONS, when)) {
          var words = {name: who, condition: when, conditions: GM_CONDITIONS.slice().sort().join(", ")};
          say(who, has(CONDITIONS, when) ?
            t("{name}: '{condition}' is not a condition for the GM to confirm (the resolver judges it from the " +
              "fight)", words) :
            t("{name}: '{condition}' is not a condition for the GM to confirm (one of {conditions})", words));
        }
      });
      if (d.redirect_to !== null) {
        var r = index.get(d.redirect_to);
        var turned = r === undefined ? null : cs[r];
        if (!(c.profile.redirects && action === "defend_self")) {
          say(who, t("{name}: only a Defend Self with a redirecting special can turn attacks away", {name: who}));
        } else if (turned === null || !inFight(turned) || d.redirect_to === who) {
          say(who, t("{name}: cannot turn attacks onto {target}", {name: who, target: d.redirect_to}));
        }
      }
    }

    function checkSpecial(c, d) {
      var who = d.actor;
      if (d.special === null) {
        return d.action === "special" ? [t("{name}: the Special action needs the name of a special", {name: who})] : [];
      }
      var words = {name: who, special: d.special, action: actionWord(d.action)};
      var special = c.profile.specials.get(d.special);
      if (special === undefined) {
        return [t("{name} does not have the special '{special}'", words)];
      }
      var left = c.uses.has(d.special) ? c.uses.get(d.special) : 1;
      if (left < 1) {
        return [t("{name} has already used {special} ({usage})",
                  {name: who, special: d.special, usage: t(special.usage)})];
      }
      if (special.effect === null) {      // GM adjudicates, with the actions its data lets it ride on
        var ride = special.rides_on;
        if (d.action === "special" || ride === "any" || ride === d.action) { return []; }
        return [ride === "none" ? t("{name}: {special} is used as the Special action, not with {action}", words) :
          t("{name}: {special} is used as the Special action or called with {ride}, not with {action}",
            {name: who, special: d.special, action: words.action, ride: actionWord(ride)})];
      }
      if (special.effect === "heal" && d.target === null) {
        return [t("{name}: {special} needs a target (yourself or another character)", words)];
      }
      var rule = EFFECTS.get(special.effect);
      if (!rule.called) {
        return [t("{name}: {special} works by itself and is not called", words)];
      }
      if (rule.action !== d.action) {
        return [t("{name}: {special} goes with {needed}, not {action}",
                  {name: who, special: d.special, action: words.action, needed: actionWord(rule.action)})];
      }
      return [];
    }

    /* --- one round, slot by slot ------------------------------------------ */

    function Round(cs, decl, bySpeed) {
      var n = cs.length;
      this.cs = cs;
      this.n = n;
      this.names = cs.map(function (c) { return c.profile.name; });
      this.index = indexOf(cs);
      this.decl = decl;
      this.bySpeed = bySpeed;
      this.hp = cs.map(function (c) { return c.hp; });
      this.rattled = cs.map(function (c) { return c.rattled; });
      this.unconscious = cs.map(function (c) { return c.unconscious; });
      this.dead = cs.map(function (c) { return c.dead; });
      this.escaped = cs.map(function (c) { return c.escaped; });
      this.touched = new Set();
      this.uses = new Map();              // fighter -> Map of uses left, once one is spent
      this.defenders = new Map();         // target -> [[defender, Effect], ...] in order
      this.selfDef = new Array(n).fill(0);
      this.redirect = new Array(n).fill(null);
      this.spoiled = new Array(n).fill(false);
      this.lines = [];
      this.adjudications = [];
    }

    Round.prototype.say = function (slot, phase, text) {
      this.lines.push({slot: slot, phase: phase, text: text});
    };

    Round.prototype.spend = function (i, special) {
      var left = this.cs[i].uses;
      if (left.has(special)) {
        var mine = this.uses.get(i);
        if (mine === undefined) {
          mine = new Map(left);
          this.uses.set(i, mine);
        }
        mine.set(special, mine.get(special) - 1);
      }
    };

    Round.prototype.declare = function () {
      var self = this;
      this.decl.forEach(function (d, i) {
        if (d === null && canAct(self.cs[i])) {
          self.say(null, "declare", t("{name} did not declare in time: off-guard, no action this round.",
                                      {name: self.names[i]}));
        }
      });
    };

    /* Every fighter as they stand now (what resolver.py hands `on_slot`). */
    Round.prototype.fighters = function () {
      var self = this;
      return this.cs.map(function (c, i) {
        var uses = self.uses.get(i);
        return {profile: c.profile, hp: self.hp[i], rattled: self.rattled[i], unconscious: self.unconscious[i],
                dead: self.dead[i], escaped: self.escaped[i], uses: uses === undefined ? c.uses : new Map(uses)};
      });
    };

    Round.prototype.run = function (onSlot) {
      var self = this;
      this.declare();
      SPEEDS.forEach(function (s) {
        self.slot(s);
        if (onSlot) { onSlot(s, self.fighters()); }
      });
      return this.finish();
    };

    /* One Speed Slot: the Python's `slot`, cut in two where the GM may rule
     * on an adjudicated special (between the status and escape phases). */
    Round.prototype.slot = function (s) {
      var pending = this.slotActions(s);
      if (pending !== null) { this.slotEscapes(s, pending); }
    };

    Round.prototype.slotActions = function (s) {
      var self = this, names = this.names, decl = this.decl, cs = this.cs;
      var dead = this.dead, unconscious = this.unconscious, escaped = this.escaped, rattled = this.rattled;
      var hp = this.hp;
      var acting = this.bySpeed[s];
      if (!acting.length) { return null; }
      var actors = [], gm = [];
      acting.forEach(function (i) {
        var d = decl[i];
        if (dead[i] || unconscious[i] || escaped[i]) {
          self.say(s, "activation", t("{name} is {status}: the {action} does not happen.",
                                      {name: names[i], status: self.statusOf(i), action: actionWord(d.action)}));
          return;
        }
        if (rattled[i] && (s > RATTLED_MAX_SPEED || !has(RATTLED_ACTIONS, d.action))) {
          self.say(s, "activation", t("{name} is Rattled: the {action} at Speed {speed} is lost (Rattled: only " +
                                      "Escape or Recover, at Speed 1).",
                                      {name: names[i], action: actionWord(d.action), speed: s}));
          return;
        }
        if (d.special !== null && d.action !== "special" && cs[i].profile.specials.get(d.special).effect === null) {
          gm.push(i);
          return;
        }
        actors.push(i);
      });
      if (!(actors.length || gm.length)) { return null; }
      var awake = actors.concat(gm).sort(numeric);
      this.say(s, "activation", tn("{names} opens their eyes.", "{names} open their eyes.", awake.length,
                                   {names: and(awake.map(function (i) { return names[i]; }))}));
      var firstRuling = this.adjudications.length;
      gm.forEach(function (i) { self.adjudicate(s, i, decl[i]); });

      var loss = new Map(), gain = new Map(), finishes = new Map(), rattle = new Set(), cleared = new Set();
      var attacks = [], escapers = [];
      var effect = ACTION_POINTS - s;
      actors.forEach(function (i) {
        var d = decl[i], a = d.action, ti, amount;
        if (a === "attack") {
          attacks.push(i);
        } else if (a === "defend_other") {
          ti = self.index.get(d.target);
          amount = effect + cs[i].profile.defend_other_plus;
          if (cs[i].profile.conditional.size) {
            amount += self.bonusIf(s, i, "defend_other", ti, d);
          }
          var guards = self.defenders.get(ti);
          if (guards === undefined) {
            self.defenders.set(ti, [[i, amount]]);
          } else {
            guards.push([i, amount]);
          }
          self.say(s, "action", t("{name} starts defending {target}: takes up to {amount} of each hit on them " +
                                  "until the round ends.", {name: names[i], target: d.target, amount: amount}));
        } else if (a === "defend_self") {
          amount = effect + cs[i].profile.defend_self_plus;
          if (cs[i].profile.conditional.size) {
            amount += self.bonusIf(s, i, "defend_self", i, d);
          }
          var doubled = d.special !== null;
          if (doubled) {
            self.spend(i, d.special);
            amount *= 2;
          }
          self.selfDef[i] = amount;
          if (d.redirect_to !== null) {
            self.redirect[i] = self.index.get(d.redirect_to);
          }
          self.say(s, "action", (doubled ?
            t("{name} defends themselves: every hit on them is cut by {amount} ({special}: doubled) until the " +
              "round ends.", {name: names[i], amount: amount, special: d.special}) :
            t("{name} defends themselves: every hit on them is cut by {amount} until the round ends.",
              {name: names[i], amount: amount})));
        } else if (a === "escape") {
          escapers.push(i);
          self.say(s, "action", t("{name} is trying to Escape; it is checked in the escape phase.",
                                  {name: names[i]}));
        } else if (a === "recover") {
          ti = d.target === null ? i : self.index.get(d.target);
          gain.set(ti, (gain.has(ti) ? gain.get(ti) : 0) + RECOVER_HIT_POINTS);
          if (ti === i) { cleared.add(i); }
          var said = ti !== i ? "{name} takes Recover on {target}: 1 hit point back, and they wake." :
            self.rattled[i] ? "{name} takes Recover: 1 hit point back, and Rattled ends." :
            "{name} takes Recover: 1 hit point back.";
          self.say(s, "action", t(said, {name: names[i], target: names[ti]}));
        } else {
          self.special(s, i, d, gain);
        }
      });
      attacks.forEach(function (i) { self.attack(s, i, decl[i], loss, finishes, rattle); });

      var changed = new Set(loss.keys());
      gain.forEach(function (_, ti) { changed.add(ti); });
      cleared.forEach(function (ti) { changed.add(ti); });
      rattle.forEach(function (ti) { changed.add(ti); });
      var dying = [];
      changed.forEach(function (ti) { self.touched.add(ti); });
      Array.from(changed).sort(numeric).forEach(function (ti) {
        var before = hp[ti];
        var wasRattled = rattled[ti], wasOut = unconscious[ti];
        var hurt = before - (loss.has(ti) ? loss.get(ti) : 0);
        var finish = finishes.has(ti) ? finishes.get(ti) : null;
        if (finish === "kill") {
          dead[ti] = true;
        } else if (finish === "knock_out") {
          unconscious[ti] = true;
        }
        var after = gain.has(ti) && !dead[ti] ? hurt + gain.get(ti) : hurt;
        var limit = cs[ti].profile.hit_points;
        if (after > limit) { after = limit; }
        if (after < 0) { after = 0; }
        var regained = after > hurt && after > 0;
        hp[ti] = after;
        if (rattle.has(ti)) { rattled[ti] = true; }
        if (regained || cleared.has(ti)) {
          rattled[ti] = false;
          if (regained) { unconscious[ti] = false; }
        }
        if (after === 0) { rattled[ti] = true; }
        self.statusLine(s, ti, before, after, finish, wasRattled, wasOut);
        if ((dead[ti] || unconscious[ti] || rattled[ti]) && !(wasRattled || wasOut)) {
          dying.push(ti);
        }
      });
      dying.forEach(function (ti) { self.stopOngoing(s, ti); });
      return {escapers: escapers, rulings: this.adjudications.slice(firstRuling)};
    };

    Round.prototype.slotEscapes = function (s, pending) {
      var self = this;
      pending.escapers.forEach(function (i) {
        if (self.spoiled[i] || self.dead[i] || self.unconscious[i]) {
          self.say(s, "escape", t("{name}'s Escape fails: they were hurt or targeted by a special before it " +
                                  "resolved. They stay in the fight.", {name: self.names[i]}));
        } else {
          self.escaped[i] = true;
          self.touched.add(i);
          self.say(s, "escape", t("{name} escapes and must leave the area of the fight.", {name: self.names[i]}));
        }
      });
    };

    Round.prototype.adjudicate = function (s, i, d) {
      this.spend(i, d.special);
      var asked = {name: this.names[i], special: d.special, action: actionWord(d.action), target: d.target, speed: s};
      this.adjudications.push(d.target ? t("{name} calls {special} with {action} on {target} at Speed {speed}", asked) :
                              t("{name} calls {special} with {action} at Speed {speed}", asked));
      this.say(s, "action", t("{name} calls {special} with {action}. GM adjudicates: the resolver leaves this " +
                              "whole action to the GM.", {name: this.names[i], special: d.special,
                                                          action: actionWord(d.action)}));
    };

    /* How fighter i stands, as the log's "X is ..." says it (narration.STATUS_WORDS). */
    Round.prototype.statusOf = function (i) {
      if (this.dead[i]) { return t("Dead"); }
      if (this.escaped[i]) { return t("gone (escaped)"); }
      if (this.unconscious[i]) { return t("Unconscious"); }
      return this.rattled[i] ? t("Rattled") : t("fighting");
    };

    /* Clauses of one status line as one sentence. */
    function sentence(clauses) {
      return clauses.reduce(clause) + ".";
    }

    Round.prototype.statusLine = function (s, ti, before, after, finish, wasRattled, wasOut) {
      var who = {name: this.names[ti], hp: after, before: before};
      if (finish === "kill") {
        this.say(s, "status", t("{name} is Dead (killing blow, announced aloud).", who));
        return;
      }
      var bits = [];
      if (before !== after) {
        bits.push(tn("{name} is on {hp} hit point (was {before})", "{name} is on {hp} hit points (was {before})",
                     after, who));
      }
      if (finish === "knock_out" && this.unconscious[ti]) {
        bits.push(t("{name} is knocked out: Unconscious", who));
      } else if (wasOut && !this.unconscious[ti]) {
        bits.push(t("{name} is no longer Unconscious", who));
      }
      if (this.rattled[ti] && !wasRattled) {
        bits.push(after === 0 ? t("{name} becomes Rattled", who) :
                  t("{name} becomes Rattled though not at 0 hit points", who));
      } else if (wasRattled && !this.rattled[ti]) {
        bits.push(t("{name} is no longer Rattled", who));
      }
      if (bits.length) {
        this.say(s, "status", sentence(bits));
      }
    };

    Round.prototype.stopOngoing = function (s, ti) {
      var stopped = [];
      if (this.selfDef[ti]) {
        this.selfDef[ti] = 0;
        stopped.push("Defend Self");
      }
      this.defenders.forEach(function (guards) {
        for (var k = 0; k < guards.length; k++) {
          if (guards[k][0] === ti) {
            guards.splice(k, 1);
            stopped.push("Defend Other");
            break;
          }
        }
      });
      if (stopped.length) {
        var kinds = Array.from(new Set(stopped)).sort();
        var actions = and(kinds.map(function (k) { return t(k); }));
        this.say(s, "status", t("{name}'s {actions} stops.", {name: this.names[ti], actions: actions}));
      }
    };

    /* --- actions -------------------------------------------------------------- */

    Round.prototype.bonusIf = function (s, i, action, ti, d) {
      var extra = 0, met = [], self = this;
      var pairs = this.cs[i].profile.conditional.get(action) || [];
      pairs.forEach(function (pair) {
        var when = pair[0], amount = pair[1], holds;
        if (when === "target_rattled") {
          holds = ti !== null && ti !== undefined && ti !== i && self.rattled[ti];
        } else if (when === "hurt") {
          holds = self.hp[i] < self.cs[i].profile.hit_points;
        } else {
          holds = has(d.confirmed, when);
        }
        if (holds) {
          extra += amount;
          met.push("+" + amount + " " + t(CONDITION_WORDS.get(when)));
        }
      });
      if (met.length) {
        this.say(s, "action", t("{name}'s {action} counts {bonuses}.",
                                {name: this.names[i], action: actionWord(action), bonuses: and(met)}));
      }
      return extra;
    };

    Round.prototype.attack = function (s, i, d, loss, finishes, rattle) {
      var ti = this.index.get(d.target);
      if (this.escaped[ti] || this.dead[ti]) {
        this.say(s, "action", t("{name}'s {what} finds nobody: {target} is {status}.",
                                {name: this.names[i], what: actionWord("attack"), target: d.target,
                                 status: this.statusOf(ti)}));
        return;
      }
      var profile = this.cs[i].profile;
      var base = ACTION_POINTS - s;
      var amount = base + profile.attack_plus;
      if (profile.conditional.size) {
        amount += this.bonusIf(s, i, "attack", ti, d);
      }
      var kind = null;
      if (d.special !== null) {
        kind = profile.specials.get(d.special).effect;
        this.spend(i, d.special);
      }
      var who = {name: this.names[i], target: d.target, special: d.special};
      var words = d.special ? t("{name} attacks {target} with {special}", who) : t("{name} attacks {target}", who);
      if (profile.chooses_slot) {
        words = t("{attack} (chose the Speed {speed} slot)", {attack: words, speed: s});
      }
      words = t("{attack}: Effect {total}", {attack: words, total: amount !== base ?
        base + " + " + (amount - base) + " = " + amount : base + " = " + amount});
      var hit = this.hit(ti, amount, kind === "ignore_defences", loss, words);
      var dealt = hit[0];
      words = hit[1];
      if (dealt) {
        if (kind === "rattle_on_damage") {
          rattle.add(ti);
          words = clause(words, t("{special}: {name} will be Rattled", {special: d.special, name: d.target}));
        }
        if (d.finish !== null && finishable(this.rattled[ti], this.hp[ti], d.finish)) {
          if (finishes.get(ti) !== "kill") {
            finishes.set(ti, d.finish);
          }
          words = clause(words, d.finish === "kill" ? t("{name} calls a killing blow: kill", who) :
                                t("{name} calls a killing blow: knock out", who));
        } else if (d.finish === "kill" && this.rattled[ti]) {
          words = clause(words, t("no kill: {name} is Rattled but not on 0 hit points (a knock-out was possible)",
                                  {name: d.target}));
        }
      }
      this.say(s, "action", words + ".");
      var r = this.redirect[ti];
      if (r !== null && !dealt && this.selfDef[ti]) {
        if (!(this.dead[r] || this.escaped[r])) {
          var more = this.hit(r, amount, false, loss, t("{name} turns the unhurt attack onto {target}: {amount}",
                                                        {name: d.target, target: this.names[r], amount: amount}));
          this.say(s, "action", more[1] + ".");
        }
      }
    };

    Round.prototype.hit = function (ti, amount, pierce, loss, words) {
      var rest = amount, self = this;
      if (!pierce) {
        var guards = this.defenders.get(ti) || [];
        for (var k = 0; k < guards.length; k++) {
          if (rest <= 0) { break; }
          var g = guards[k][0], effect = guards[k][1];
          var soaked = effect < rest ? effect : rest;
          rest -= soaked;
          var lost = soaked - self.cs[g].profile.armour;
          if (lost > 0) {
            loss.set(g, (loss.has(g) ? loss.get(g) : 0) + lost);
            self.spoiled[g] = true;
          }
          var taken = {name: self.names[g], amount: soaked, stopped: soaked - Math.max(lost, 0)};
          words = clause(words, lost < soaked ? t("{name} takes {amount} of it (armour stops {stopped})", taken) :
                                t("{name} takes {amount} of it", taken));
        }
        var armour = this.cs[ti].profile.armour;
        var cut = armour + this.selfDef[ti];
        if (cut && rest > 0) {
          var by = [armour ? t("armour {amount}", {amount: armour}) : "",
                    this.selfDef[ti] ? t("Defend Self {amount}", {amount: this.selfDef[ti]}) : ""]
            .filter(function (w) { return w; });
          words = clause(words, tn("{name}'s {by} stops {amount}", "{name}'s {by} stop {amount}", by.length,
                                   {name: this.names[ti], by: and(by), amount: Math.min(cut, rest)}));
          rest = rest > cut ? rest - cut : 0;
        }
      } else {
        words = t("{attack} (no armour or defence counts)", {attack: words});
      }
      if (rest > 0) {
        loss.set(ti, (loss.has(ti) ? loss.get(ti) : 0) + rest);
        this.spoiled[ti] = true;
      }
      words = clause(words, t("{name} loses {amount}", {name: this.names[ti], amount: rest}));
      return [rest, words];
    };

    Round.prototype.special = function (s, i, d, gain) {
      var names = this.names;
      var ti = d.target !== null ? this.index.get(d.target) : null;
      var special = this.cs[i].profile.specials.get(d.special);
      this.spend(i, d.special);
      if (ti !== null && (this.dead[ti] || this.escaped[ti])) {
        this.say(s, "action", t("{name}'s {what} finds nobody: {target} is {status}.",
                                {name: names[i], what: d.special, target: d.target, status: this.statusOf(ti)}));
        return;
      }
      if (special.effect === "heal") {
        var amount = ACTION_POINTS - s + this.cs[i].profile.special_plus;
        if (this.cs[i].profile.conditional.size) {
          amount += this.bonusIf(s, i, "special", ti, d);
        }
        gain.set(ti, (gain.has(ti) ? gain.get(ti) : 0) + amount);
        this.spoiled[ti] = true;
        this.say(s, "action", t("{name} uses {special} on {target}: up to {amount} hit points back, never above " +
                                "their starting hit points.",
                                {name: names[i], special: d.special, target: d.target, amount: amount}));
        return;
      }
      var asked = {name: names[i], special: d.special, target: d.target, speed: s};
      this.adjudications.push(d.target ? t("{name} uses {special} on {target} at Speed {speed}", asked) :
                              t("{name} uses {special} at Speed {speed}", asked));
      this.say(s, "action", d.target ?
        t("{name} uses {special} on {target}. GM adjudicates: the resolver changes nothing for it (if it lands, " +
          "{target} cannot Escape this round).", asked) :
        t("{name} uses {special}. GM adjudicates: the resolver changes nothing for it.", asked));
    };

    /* --- the GM's ruling on an adjudicated special (the tracker's own) -------- */

    /* Set fighter i's hit points and statuses as the GM rules, in slot s
     * after its status phase and before its escapes. `change` holds hp,
     * rattled, unconscious, dead, escaped, spoil (their Escape fails) and
     * cancel (their action in a later slot does not happen).
     * The resolver's bookkeeping still holds: 0 hit points is Rattled,
     * Unconscious and Dead are Rattled too, the Dead are on 0, and anyone
     * newly out of action stops Defending. */
    Round.prototype.rule = function (s, i, change) {
      var before = this.fighters()[i];
      var after = settle(before, change);
      this.hp[i] = after.hp;
      this.rattled[i] = after.rattled;
      this.unconscious[i] = after.unconscious;
      this.dead[i] = after.dead;
      this.escaped[i] = after.escaped;
      if (after.hp < before.hp || change.spoil) {
        this.spoiled[i] = true;
      }
      this.touched.add(i);
      var words = changeWords(before, after);
      if (change.spoil && !after.escaped) {
        words.push(t("{name} cannot Escape this round", {name: this.names[i]}));
      }
      var d = this.decl[i];
      if (change.cancel && d && d.speed < s) {
        var waiting = this.bySpeed[d.speed], k = waiting.indexOf(i);
        if (k >= 0) {
          waiting.splice(k, 1);
          words.push(t("{name}'s {action} at Speed {speed} does not happen",
                       {name: this.names[i], action: actionWord(d.action), speed: d.speed}));
        }
      }
      if (words.length) {
        this.say(s, "status", t("GM ruling: {changes}.", {changes: words.reduce(clause)}));
      }
      if ((after.dead || after.unconscious || after.rattled || after.escaped) &&
          !(before.rattled || before.unconscious || before.escaped)) {
        this.stopOngoing(s, i);
      }
    };

    Round.prototype.finish = function () {
      var self = this, out = this.cs.slice();
      var changed = new Set(this.touched);
      this.uses.forEach(function (_, i) { changed.add(i); });
      changed.forEach(function (i) {
        var c = out[i], uses = self.uses.get(i);
        out[i] = {profile: c.profile, hp: self.hp[i], rattled: self.rattled[i], unconscious: self.unconscious[i],
                  dead: self.dead[i], escaped: self.escaped[i], uses: uses === undefined ? c.uses : uses};
      });
      var standing = [];
      for (var i = 0; i < this.n; i++) {
        if (!(this.dead[i] || this.escaped[i] || this.unconscious[i])) { standing.push(this.names[i]); }
      }
      this.say(null, "end", standing.length ?
        t("Round over. Still able to act: {names}. Ask who wants to keep fighting.", {names: and(standing)}) :
        t("Round over. Still able to act: nobody. Ask who wants to keep fighting."));
      return {combatants: out, log: this.lines, adjudications: this.adjudications};
    };

    /* What changed between two states of one fighter, in the log's words. */
    function changeWords(before, after) {
      var who = {name: before.profile.name, hp: after.hp, before: before.hp}, words = [];
      if (after.dead && !before.dead) {
        return [t("{name} is Dead", who)];
      }
      if (before.dead && !after.dead) { words.push(t("{name} is no longer Dead", who)); }
      if (before.hp !== after.hp) {
        words.push(tn("{name} is on {hp} hit point (was {before})", "{name} is on {hp} hit points (was {before})",
                      after.hp, who));
      }
      if (after.unconscious && !before.unconscious) {
        words.push(t("{name} is knocked out: Unconscious", who));
      } else if (before.unconscious && !after.unconscious) {
        words.push(t("{name} is no longer Unconscious", who));
      }
      if (after.rattled && !before.rattled) {
        words.push(after.hp === 0 ? t("{name} becomes Rattled", who) :
                   t("{name} becomes Rattled though not at 0 hit points", who));
      } else if (before.rattled && !after.rattled) {
        words.push(t("{name} is no longer Rattled", who));
      }
      if (after.escaped && !before.escaped) {
        words.push(t("{name} has escaped and leaves the area of the fight", who));
      } else if (before.escaped && !after.escaped) {
        words.push(t("{name} is back in the fight", who));
      }
      return words;
    }

    /* Check, then return a Round ready to run slot by slot, or {reasons}. */
    function start(cs, declarations) {
      var decl = cs.map(function () { return null; }), bySpeed = [[], [], [], [], [], []];
      var reasons = validate(cs, declarations, decl, bySpeed);
      if (reasons.length) { return {reasons: reasons}; }
      return {round: new Round(cs, decl, bySpeed)};
    }

    /* The whole round at once, as resolver.resolve_round. */
    function resolve(cs, declarations, onSlot) {
      var started = start(cs, declarations);
      if (started.reasons) { return {reasons: started.reasons}; }
      return started.round.run(onSlot);
    }

    return {validate: validate, start: start, resolve: resolve, Round: Round, actionName: actionName,
            actionWord: actionWord, effects: EFFECTS, conditionWords: CONDITION_WORDS, changeWords: changeWords,
            t: t, tn: tn, and: and};
  }

  /* A fighter's state after a GM's ruling, with the rules' bookkeeping kept. */
  function settle(c, change) {
    var limit = c.profile.hit_points;
    var hp = Math.max(0, Math.min(limit, change.hp === undefined ? c.hp : change.hp));
    var dead = change.dead === undefined ? c.dead : change.dead;
    var unconscious = change.unconscious === undefined ? c.unconscious : change.unconscious;
    var rattled = change.rattled === undefined ? c.rattled : change.rattled;
    var escaped = change.escaped === undefined ? c.escaped : change.escaped;
    if (dead) {
      hp = 0;
      unconscious = false;
    }
    if (dead || unconscious) { escaped = false; }
    if (hp === 0 || dead || unconscious) { rattled = true; }
    return {profile: c.profile, hp: hp, rattled: rattled, unconscious: unconscious, dead: dead, escaped: escaped,
            uses: c.uses};
  }

  return {create: create, profileOf: profileOf, combatant: combatant, stateOf: stateOf, declaration: declaration,
          status: status, canAct: canAct, inFight: inFight, finishable: finishable, settle: settle,
          translator: translator};
}));
