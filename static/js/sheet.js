/* The table sheet: small helpers on top of forms that work without JavaScript.
   - htmx swaps in the sheet's answer to a refused change (403, 422: a box beside the
     form, the taps kept), a lost race (409: the sheet as it stands) or a game taken back
     meanwhile (404: the sheet's place says so);
   - after a change, the line in words and the score are brought into view;
   - split entry shows "A 3 – 2 B" as soon as a count is tapped; its Save with no count
     says in the sheet's words what to tap (or that the taps are in trick by trick);
   - trick by trick: a running total per side; saves itself once the deal is complete
     (five tricks, or a side at the target), never with a trick left blank; the tricks
     tapped so far are kept on the phone, and back after a reload (no connection);
   - Forty-Five: a deal played out to five tricks is not saved until who won the highest
     trump is answered (nothing is preset); trick by trick brings the question into view;
   - steppers: − and + buttons and a live "x of 5" total;
   - Undo and Confirm ask for a second tap in place; with deals kept on the phone (no
     connection), Undo takes back the last of them, named on the button;
   - an ended login, or a sheet older than the last login (it reloads): what was
     entered is kept in this tab until the sheet is back;
   - a page restored from the back/forward cache reloads itself;
   - the copy of the sheet kept for no connection follows each sheet drawn in place. */
(function () {
  "use strict";

  var STASH = "sheet-entry:" + window.location.pathname;

  // The sheet's own refusals: drawn to be swapped in place, not errors.
  var REFUSALS = [403, 404, 409, 422];

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (REFUSALS.indexOf(event.detail.xhr.status) !== -1) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  function updateSplit(form) {
    var picked = form.querySelector('input[name="first"]:checked');
    var rest = form.querySelector("[data-split-rest]");
    if (!picked || !rest) return;
    if (!rest.dataset.splitRest) rest.dataset.splitRest = rest.textContent;  // the page's words, for the next deal
    var first = parseInt(picked.value, 10);
    rest.textContent = form.dataset.first + " " + first + " – " + (5 - first) + " " + form.dataset.other;
  }

  /* A box in the sheet's own words beside a form, as the server's refusals are drawn. */
  function sayInBox(slot, lines) {
    if (!slot) return;
    var box = document.createElement("div");
    box.className = "entry-errors";
    box.setAttribute("role", "alert");
    box.setAttribute("data-box", "");
    var list = document.createElement("ul");
    var item = document.createElement("li");
    item.textContent = lines[0];
    list.appendChild(item);
    box.appendChild(list);
    var rest = document.createElement("p");
    rest.textContent = lines[1];
    box.appendChild(rest);
    slot.replaceChildren(box);
    showAboveBar(slot.closest("form"), slot, "instant");
  }

  // The split's Save with no count tapped: the browser's own small bubble ("Please
  // select one of these options.") sat over the 0–5 row, and said nothing of the taps
  // made in trick by trick below, whose Save is a second "Save deal" on the screen.
  document.addEventListener("invalid", function (event) {
    var input = event.target;
    var form = input.form;
    if (form && input.name === "bonus_side") {
      event.preventDefault();
      if (form.querySelector('input[name="first"]:invalid')) return;  // the tricks come first
      sayInBox(form.querySelector(".box-slot"), [
        "Tap who won the highest trump, or “No trump played”.", "Nothing was saved."
      ]);
      return;
    }
    if (!form || !form.hasAttribute("data-split") || input.name !== "first") return;
    event.preventDefault();
    var order = document.querySelector('#sheet [data-order]');
    var tapped = order && order.querySelector('input[name^="trick_"]:checked');
    sayInBox(form.querySelector(".box-slot"), tapped ? [
      "Your tricks are entered in Trick by trick, below: save them with the Save " +
        "button at the bottom of it.",
      "Nothing was saved."
    ] : [
      "Tap how many tricks " + form.dataset.first + " took, 0 to 5.",
      "Nothing was saved."
    ]);
  }, true);

  /* Forty-Five: who won the highest trump must be answered for a deal of five tricks
     (a short one, stopped at the target, carries no bonus). */
  function askBonus(form, needed) {
    form.querySelectorAll('input[name="bonus_side"]').forEach(function (input) {
      input.required = needed;
    });
  }

  function bonusAnswered(form) {
    return !form.querySelector(".bonus") ||
      Boolean(form.querySelector('input[name="bonus_side"]:checked'));
  }

  // Each deal's steppers and their total (a correction may show two deals).
  function updateTotal(form) {
    form.querySelectorAll(".steppers").forEach(function (deal, index) {
      var total = deal.querySelector("[data-total]");
      if (!total) return;
      var sum = 0;
      deal.querySelectorAll('input[type="number"]').forEach(function (input) {
        sum += parseInt(input.value, 10) || 0;
      });
      if (index === 0) askBonus(form, sum === 5);
      total.hidden = false;
      total.querySelector("output").textContent = String(sum);
      total.classList.toggle("over", sum > 5);
    });
  }

  /* Trick by trick: the tricks tapped in order up to the first blank, each side's
     tricks and running score, and whether the deal is complete. */
  function trickState(form) {
    // Deals kept on the phone are not in the score drawn: with any, whether a side has
    // reached the target is not known here, and the deal saves itself only at trick 5.
    var sheet = document.getElementById("sheet");
    var kept = sheet ? parseInt(sheet.dataset.kept || "0", 10) : 0;
    var scores = form.dataset.scores.split(",").map(function (n) { return parseInt(n, 10); });
    var perTrick = parseInt(form.dataset.perTrick, 10);
    var target = parseInt(form.dataset.target, 10);
    var tricks = scores.map(function () { return 0; });
    var played = 0, gap = false, reached = false;
    for (var trick = 1; trick <= 5; trick++) {
      var picked = form.querySelector('input[name="trick_' + trick + '"]:checked');
      if (!picked) { gap = true; continue; }
      if (gap || reached) return { tricks: tricks, scores: scores, complete: false, gap: true };
      var side = parseInt(picked.value, 10);
      tricks[side] += 1;
      scores[side] += perTrick;
      played = trick;
      if (scores[side] >= target && !kept) reached = true;
    }
    // Played out, the highest trump's points go to the side tapped for it.
    var bonus = form.querySelector('input[name="bonus_side"]:checked');
    if (played === 5 && !gap && bonus && bonus.value !== "") {
      scores[parseInt(bonus.value, 10)] += parseInt(form.dataset.bonusPoints || "0", 10);
    }
    return {
      tricks: tricks, scores: scores, complete: played === 5 || reached, played: played, kept: kept
    };
  }

  function updateTricks(form) {
    var total = form.querySelector("[data-trick-total]");
    if (!total) return null;
    var state = trickState(form);
    askBonus(form, state.played === 5);
    var names = Array.prototype.map.call(
      form.querySelectorAll('[data-trick="1"] .tap-side span'),
      function (span) { return span.textContent; }
    );
    total.hidden = false;
    total.textContent = names.map(function (name, side) {
      var n = state.tricks[side];
      return name + " " + n + (n === 1 ? " trick" : " tricks") +
        (state.kept ? "" : ", score " + state.scores[side]);
    }).join(" · ") + (state.kept ? ": the score follows once the " +
      (state.kept === 1 ? "deal kept on this phone is" : "deals kept on this phone are") +
      " sent" : "") + (state.played === 5 && !bonusAnswered(form) ?
      ". Now tap who won the highest trump." : "");
    return state;
  }

  function wake(root) {
    root.querySelectorAll("[data-steppers]").forEach(function (form) {
      form.querySelectorAll(".step").forEach(function (button) { button.hidden = false; });
      updateTotal(form);
    });
  }

  document.addEventListener("change", function (event) {
    var input = event.target;
    var form = input.form;
    if (!form) return;
    if (form.hasAttribute("data-split") && input.name === "first") updateSplit(form);
    // A refusal answered by a new tap of the tricks or the highest trump goes.
    if ((form.hasAttribute("data-split") && input.name === "first") || input.name === "bonus_side") {
      var slot = form.querySelector(".box-slot");
      if (slot && slot.querySelector("[data-box]")) slot.replaceChildren();
    }
    if (form.hasAttribute("data-steppers")) updateTotal(form);
    if (input.name === "dealer" && form.matches("#sheet form.entry")) {
      var sheet = document.getElementById("sheet");
      sayDealer(parseInt(sheet.dataset.dealNumber, 10) + parseInt(sheet.dataset.kept || "0", 10), form);
    }
    if (form.hasAttribute("data-order")) keepTaps();
    if (form.hasAttribute("data-order") && input.name === "bonus_side") {
      var done = updateTricks(form);
      if (done && done.complete) form.requestSubmit();
    }
    if (form.hasAttribute("data-order") && /^trick_\d$/.test(input.name)) {
      var state = updateTricks(form);
      var trick = parseInt(input.name.slice(6), 10);
      if (state && state.complete && (state.played < 5 || bonusAnswered(form))) {
        form.requestSubmit();
      } else if (state && state.complete) {
        showAboveBar(form, form.querySelector(".bonus"));  // saved once it is answered
      } else {
        showAboveBar(form, form.querySelector('[data-trick="' + (trick + 1) + '"]'));
      }
    }
  });

  // Clear of the Save bar stuck to the bottom: with long names it is a third of the
  // screen, and the next trick's buttons, the highest trump's or a refusal stopped under it.
  function showAboveBar(form, element, behavior) {
    if (!element) return;
    var bar = form && form.querySelector(".trick-bar");
    element.style.scrollMarginBottom = (bar ? bar.offsetHeight + 8 : 0) + "px";
    element.scrollIntoView({ block: "nearest", behavior: behavior || "smooth" });
  }

  // Steppers typed into: the total follows each digit, not only the box left.
  document.addEventListener("input", function (event) {
    var form = event.target.form;
    if (form && form.hasAttribute("data-steppers")) updateTotal(form);
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest(".step");
    if (!button) return;
    var input = button.closest("[data-stepper]").querySelector('input[type="number"]');
    var value = (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10);
    input.value = String(Math.max(0, Math.min(5, value)));
    updateTotal(button.form);
  });

  // Undo and Confirm: the first tap asks, in place; the second does it. The button
  // rests for a second after asking, so the second tap of a double tap is not taken
  // for an answer to a question not yet seen. Each question is numbered: a button
  // answered and asked again meanwhile is not put back to the words of the first.
  var asked = 0;
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-second-tap]");
    if (!button || button.dataset.armed) return;
    event.preventDefault();
    var said = button.textContent;
    var question = String(++asked);
    button.dataset.armed = question;
    button.textContent = button.dataset.secondTap;
    button.classList.add("armed");
    button.disabled = true;
    window.setTimeout(function () { button.disabled = false; }, 1000);
    window.setTimeout(function () {
      if (!button.isConnected || button.dataset.armed !== question) return;
      delete button.dataset.armed;
      button.textContent = said;
      button.classList.remove("armed");
    }, 8000);
  }, true);

  // What a form holds, to keep it across a login that ended.
  function entries(form) {
    var kept = { mode: form.querySelector('input[name="mode"]').value, fields: {} };
    form.querySelectorAll("input[type=radio]:checked, input[type=number]").forEach(function (input) {
      kept.fields[input.name] = input.value;
    });
    return kept;
  }

  function restore() {
    var kept;
    try { kept = JSON.parse(window.sessionStorage.getItem(STASH) || "null"); } catch (e) { kept = null; }
    if (!kept) return;
    var modeInput = document.querySelector('#sheet input[name="mode"][value="' + kept.mode + '"]');
    if (!modeInput) {  // not this person's form (yet): kept until they log in again
      offerLogin();
      return;
    }
    window.sessionStorage.removeItem(STASH);
    var form = modeInput.form;
    putBack(form, kept.fields, parseInt(document.getElementById("sheet").dataset.dealNumber, 10));
    // The taps are back, tapped: without a word it looked as if the deal had gone in.
    var save = form.querySelector("button.save");
    sayOnTop("Not saved yet: what you entered is back. Tap " +
      (save ? save.textContent.trim() : "Save") + " to save it.");
  }

  // Taps kept (`entries`) put back in their form, for deal `number`; trick by trick's state.
  function putBack(form, fields, number) {
    Object.keys(fields).forEach(function (name) {
      var value = fields[name];
      form.querySelectorAll('[name="' + name + '"]').forEach(function (input) {
        if (input.type === "radio") input.checked = input.value === value;
        else input.value = value;
      });
    });
    var details = form.closest("details");
    if (details) details.open = true;
    updateSplit(form);
    updateTotal(form);
    var state = updateTricks(form);
    // The dealer ticked then, said over the forms (it said the one the page proposed).
    sayDealer(number, form);
    // Trick by trick, in view above the Save bar: the next trick to tap or the highest
    // trump's question. After a login the page opened at its top, the taps out of sight.
    var next = state && (state.played === 5 ? form.querySelector(".bonus") :
      form.querySelector('[data-trick="' + ((state.played || 0) + 1) + '"]'));
    if (state) showAboveBar(form, next || form, "instant");
    return state;
  }

  function sayOnTop(text) {
    var said = document.getElementById("sheet-said");
    if (!said) return;
    if (!text) return said.replaceChildren();
    var line = document.createElement("p");
    line.textContent = text;
    said.replaceChildren(line);
  }

  // Logged out with taps kept: a big button to the login page, which returns here,
  // where the only way was the header's small "Log in".
  function offerLogin() {
    var said = document.getElementById("sheet-said");
    if (!said || !said.dataset.login) return;
    var line = document.createElement("p");
    var link = document.createElement("a");
    link.className = "button primary";
    link.href = said.dataset.login;
    link.textContent = "Go to the login page to save what you entered";
    line.appendChild(link);
    said.replaceChildren(line);
  }

  document.body.addEventListener("htmx:beforeOnLoad", function (event) {
    var form = event.detail.elt;
    var xhr = event.detail.xhr;
    // A sheet older than the last login or logout is refused and reloaded (HX-Refresh):
    // its taps come back on the fresh sheet.
    if (xhr.getResponseHeader("HX-Refresh") === "true" && isEntry(form)) {
      window.sessionStorage.setItem(STASH, JSON.stringify(entries(form)));
    }
    // Under DEBUG (`make run`) django-htmx's script, listening on the document, puts
    // any 403 or 404 answer in place of the whole page. A refusal stops here, at the
    // body, so it is swapped in place as in production; a server error goes on to it.
    if (REFUSALS.indexOf(xhr.status) !== -1) event.stopPropagation();
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;  // none for a swap made here (htmx.swap)
    if (target && target.classList && target.classList.contains("box-slot")) {
      var box = target.querySelector("[data-box]");
      if (box && box.hasAttribute("data-login")) {
        var form = target.closest("form");
        if (form) window.sessionStorage.setItem(STASH, JSON.stringify(entries(form)));
      }
      showAboveBar(target.closest("form"), target, "instant");
    }
  });

  // After a change: the line in words and the score in view; focus on the score. Not
  // after a watcher's sheet looked again (a GET every 20 s): they stay where they read.
  document.addEventListener("htmx:afterSettle", function (event) {
    wake(document);
    seenVersion();
    keepTaps();  // those on the screen now: none on a sheet drawn again after a save
    var said = document.getElementById("sheet-said");
    var score = document.querySelector("#sheet .scoreboard");
    // The server's sheet, into the copy kept for no connection (once: the event comes
    // from each element drawn, the line on top too).
    if (event.target.id === "sheet" && event.detail.xhr) keepCopy(event.detail.xhr.responseText);
    if (!event.detail.target || event.detail.target.id !== "sheet" || !score) return;
    if (event.detail.requestConfig && event.detail.requestConfig.verb === "get") return;
    var top = said && said.textContent.trim() ? said : score;
    top.scrollIntoView({ block: "start" });
    score.focus({ preventScroll: true });
    document.querySelectorAll("[data-order]").forEach(updateTricks);
  });

  window.addEventListener("pageshow", function (event) {
    if (event.persisted) window.location.reload();
  });


  /* Offline: with no connection a deal is kept on the phone (IndexedDB) with its
     idempotency key and the version of the game it was entered on, the sheet says how
     many are waiting, and they are sent in order when the connection is back; a retry
     of one already stored is the same deal. A deal kept while another phone changed
     the game is refused as a race lost online is: the sheet as it stands, "Not saved". */
  var PATH = window.location.pathname;
  var VERSION = "sheet-version:" + PATH;
  var syncing = false;
  var unreachable = false;  // the last sending failed though the phone believes it is online

  // The newest version of the game this phone has seen: the copy of the sheet kept for
  // no connection may be older (a change from another phone seen only beside taps here).
  function seenVersion() {
    var input = document.querySelector('#sheet input[name="version"]');
    var shown = input ? parseInt(input.value, 10) : 0;
    var kept = parseInt(window.localStorage.getItem(VERSION) || "0", 10);
    var newest = Math.max(shown || 0, kept || 0);
    if (newest) window.localStorage.setItem(VERSION, String(newest));
    return newest;
  }

  /* Trick by trick, the tricks tapped so far of the deal in progress are kept on the
     phone: with no connection a reload (or the browser reloading the tab) lost them.
     They are kept for the deal they were tapped for, the game as this phone saw it
     after the deals it keeps (the version it would be kept with), and go once that deal
     is kept or saved, on Undo, and when the sheet has moved on (another phone changed
     the game). Each game's sheet keeps its own. */
  var TAPS = "sheet-taps:" + PATH;

  function keptCount() {
    var sheet = document.getElementById("sheet");
    return parseInt((sheet && sheet.dataset.kept) || "0", 10);
  }

  function keepTaps() {
    var form = document.querySelector("#sheet [data-order]");
    try {
      if (form && form.querySelector('input[name^="trick_"]:checked')) {
        var taps = { at: seenVersion() + keptCount(), fields: entries(form).fields };
        window.localStorage.setItem(TAPS, JSON.stringify(taps));
      } else {
        window.localStorage.removeItem(TAPS);
      }
    } catch (e) { /* private mode: not kept */ }
  }

  // Once the deals kept on the phone are counted: the taps back, if still for this deal.
  function tapsBack() {
    var taps;
    try { taps = JSON.parse(window.localStorage.getItem(TAPS) || "null"); } catch (e) { taps = null; }
    if (!taps) return;
    if (taps.at !== seenVersion() + keptCount()) return window.localStorage.removeItem(TAPS);
    var form = document.querySelector("#sheet [data-order]");
    // No form (logged out): kept until there is one. Taps there: back after a login.
    if (!form || form.querySelector('input[name^="trick_"]:checked')) return;
    var number = parseInt(document.getElementById("sheet").dataset.dealNumber, 10) + keptCount();
    var state = putBack(form, taps.fields, number);
    // Complete now that the deals kept before it are in the score: saved with a tap.
    var save = form.querySelector("button.save");
    var complete = state.complete && bonusAnswered(form);
    sayOnTop("Not saved yet: the tricks you tapped are back." +
      (complete ? " Tap " + save.textContent.trim() + " to save them." : ""));
  }

  function database() {
    return new Promise(function (resolve, reject) {
      var request = window.indexedDB.open("twentyfive-offline", 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore("deals", { keyPath: "id", autoIncrement: true });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function store(mode, work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction("deals", mode);
        var result = work(tx.objectStore("deals"));
        tx.oncomplete = function () { resolve(result && result.result); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }

  function waiting() {
    return store("readonly", function (deals) { return deals.getAll(); }).then(function (all) {
      return (all || []).filter(function (deal) { return deal.path === PATH; });
    });
  }

  function showWaiting() {
    var line = document.getElementById("sheet-waiting");
    if (!line || !window.indexedDB) return Promise.resolve([]);
    return waiting().then(function (deals) {
      var n = deals.length;
      line.classList.remove("sent");
      line.textContent = n ? n + (n === 1 ? " deal" : " deals") + " waiting to send" +
        (navigator.onLine && !unreachable ? "…" : ": kept on this phone, not yet in the score below. " +
          (n === 1 ? "It goes" : "They go") + " when the connection is back.") : "";
      var sheet = document.getElementById("sheet");
      sheet.dataset.kept = String(n);
      document.querySelectorAll("#sheet [data-order]").forEach(function (form) {
        if (!form.querySelector("[data-trick-total]").hidden) updateTricks(form);
      });
      var next = parseInt(sheet.dataset.dealNumber, 10) + n;
      document.querySelectorAll("#sheet button.save").forEach(function (button) {
        button.textContent = "Save deal " + next;
      });
      // The deal to enter now, and who deals it, in the sheet's own words.
      document.querySelectorAll("#sheet .deal-line, #sheet .entry legend").forEach(function (el) {
        el.textContent = el.textContent.replace(/^Deal \d+/, "Deal " + next);
      });
      if (n) {
        followKept(deals[n - 1]);
        sayDealer(next);
      }
      listKept(deals, parseInt(sheet.dataset.dealNumber, 10));
      return deals;
    });
  }

  /* The page was drawn before the deals kept on the phone (a reload with no connection):
     the next deal is dealt left of the last kept one's dealer, not of the last saved
     one's (found by a walk: deal 2 was proposed, and sent, as dealt by deal 1's dealer).
     A dealer ticked by hand, or already moved on as a deal was kept, stays. */
  function followKept(last) {
    var radios = document.querySelectorAll('#sheet form.entry input[name="dealer"]');
    var untouched = Array.prototype.every.call(radios, function (radio) {
      return radio.checked === radio.defaultChecked;
    });
    var sides = sideNames().length;
    if (!radios.length || !untouched || !sides) return;
    var left = String((keptTricks(last.fields, sides).dealer + 1) % sides);
    radios.forEach(function (radio) { radio.checked = radio.value === left; });
  }

  // The line over the forms says who deals the deal to enter: the dealer ticked (in
  // `form`, when one form's dealer was ticked by hand).
  function sayDealer(number, form) {
    var dealer = (form || document).querySelector('#sheet form.entry input[name="dealer"]:checked');
    var dealLine = document.querySelector("#sheet .deal-line");
    if (dealer && dealLine) {
      dealLine.textContent = "Deal " + number + " · " + dealer.closest("label").textContent.trim() + " to deal";
    }
  }

  // The sides' names in seat order, as the sheet's dealer buttons give them.
  function sideNames() {
    var form = document.querySelector("#sheet form.entry");
    if (!form) return [];
    return Array.prototype.map.call(form.querySelectorAll('input[name="dealer"]'), function (input) {
      return input.closest("label").textContent.trim();
    });
  }

  // A kept deal's tricks per side, from the fields of whichever form entered it.
  function keptTricks(fields, sides) {
    var got = {};
    fields.forEach(function (pair) { got[pair[0]] = pair[1]; });
    var tricks = [];
    for (var side = 0; side < sides; side++) tricks.push(0);
    if (got.mode === "split") {
      tricks[0] = parseInt(got.first, 10) || 0;
      tricks[1] = 5 - tricks[0];
    } else if (got.mode === "count") {
      tricks = tricks.map(function (zero, index) { return parseInt(got["tricks_" + index], 10) || 0; });
    } else {
      for (var trick = 1; trick <= 5; trick++) {
        if (got["trick_" + trick] !== undefined && got["trick_" + trick] !== "") {
          tricks[parseInt(got["trick_" + trick], 10)] += 1;
        }
      }
    }
    return { tricks: tricks, dealer: parseInt(got.dealer, 10), bonus: got.bonus_side };
  }

  // A kept deal in words, enough to enter it again: "Harbour Hearts 3 · The Robbers 2,
  // dealt by The Robbers" (and who won the highest trump, at Forty-Five).
  function keptInWords(deal, names) {
    var kept = keptTricks(deal.fields, names.length);
    return names.map(function (name, side) {
      return name + " " + kept.tricks[side];
    }).join(" · ") + (names[kept.dealer] ? ", dealt by " + names[kept.dealer] : "") +
      (kept.bonus === "" ? ", no trump played" : "") +
      (names[kept.bonus] ? ", highest trump won by " + names[kept.bonus] : "");
  }

  /* The deals kept on the phone, under Deals, each as it was entered: the list said
     "No deals yet." and offered to take the game back while they waited, and the
     organiser could not see what they had entered. */
  function listKept(deals, first) {
    var list = document.querySelector("#sheet ol.deals");
    if (!list) return;
    list.querySelectorAll(".deal-kept").forEach(function (row) { row.remove(); });
    var names = sideNames();
    deals.forEach(function (deal, index) {
      var row = document.createElement("li");
      row.className = "deal-row deal-kept";
      row.textContent = "Deal " + (first + index) + ": " + keptInWords(deal, names) + ": waiting to send";
      list.appendChild(row);
    });
    list.querySelectorAll("[data-no-deals]").forEach(function (row) { row.hidden = deals.length > 0; });
    document.querySelectorAll("#sheet [data-take-back]").forEach(function (form) {
      form.hidden = deals.length > 0;
    });
    offerUndoKept(list, deals.length ? first + deals.length - 1 : 0);
  }

  /* Undo with deals kept on the phone takes back the last of them, the one just
     entered: it named the last deal the server has ("Tap again to undo deal 1") and
     could not be sent with no connection. While deals wait, the server's Undo is
     hidden and this one says which deal it takes back; with none, it goes. */
  function offerUndoKept(list, number) {
    document.querySelectorAll("#sheet form.undo:not([data-take-back])").forEach(function (form) {
      form.hidden = number > 0;
    });
    var undo = document.querySelector("#sheet [data-undo-kept]");
    if (!number) {
      if (undo) undo.remove();
      return;
    }
    if (!undo) {
      undo = document.createElement("div");
      undo.className = "undo";
      undo.dataset.undoKept = "";
      var button = document.createElement("button");
      button.type = "button";
      button.className = "danger";
      undo.appendChild(button);
      list.after(undo);
    }
    var words = undo.querySelector("button");
    words.textContent = "Undo deal " + number + ", kept on this phone";
    words.dataset.secondTap = "Tap again to undo deal " + number;
    delete words.dataset.armed;  // a question about another deal is not answered
    words.classList.remove("armed");
  }

  // The second tap (the first one's default is prevented, as it only asks).
  document.addEventListener("click", function (event) {
    var button = event.target.closest("#sheet [data-undo-kept] button");
    if (!button || event.defaultPrevented || !button.dataset.armed || button.dataset.taking) return;
    button.dataset.taking = "1";  // one deal a tap
    takeBackKept().finally(function () { delete button.dataset.taking; });
  });

  function takeBackKept() {
    if (syncing) {
      sayNoConnection("The deals kept on this phone are being sent now: nothing was undone. " +
        "Once they are in the score, Undo takes back the last one.");
      return Promise.resolve();
    }
    var sheet = document.getElementById("sheet");
    var names = sideNames();
    return waiting().then(function (deals) {
      var last = deals[deals.length - 1];
      if (!last) return showWaiting();
      var number = parseInt(sheet.dataset.dealNumber, 10) + deals.length - 1;
      return store("readwrite", function (store) { store.delete(last.id); }).then(function () {
        // The deal is to enter again: dealt by the same side as the one taken back.
        var dealer = String(keptTricks(last.fields, names.length).dealer);
        document.querySelectorAll('#sheet form.entry input[name="dealer"]').forEach(function (radio) {
          radio.checked = radio.value === dealer;
        });
        // Tricks tapped for the deal after it go, as with Undo online (the sheet drawn again).
        document.querySelectorAll("#sheet [data-order]").forEach(function (form) {
          form.querySelectorAll('input[name^="trick_"], input[name="bonus_side"]').forEach(function (input) {
            input.checked = false;
          });
          updateTricks(form);
        });
        keepTaps();
        clearStale();
        return showWaiting();
      }).then(function () {
        sayDealer(number);
        sayOnTop("Deal " + number + " undone: " + keptInWords(last, names) + ". It was kept " +
          "on this phone and never sent, so the score has not changed.");
        document.getElementById("sheet-said").scrollIntoView({ block: "start" });
      });
    });
  }

  // What answered an earlier tap (a refusal's box, "Not saved", "No connection", the
  // line about the last save) is out of date once a deal is kept or taken back.
  function clearStale() {
    document.querySelectorAll("#sheet .box-slot").forEach(function (slot) { slot.replaceChildren(); });
    document.querySelectorAll("#sheet .conflict").forEach(function (box) { box.remove(); });
    sayOnTop("");
  }

  /* With no connection the server cannot check a deal's tricks: what it would refuse for
     them is refused here, before the deal is kept (found by a walk: 3 tricks of 5 were
     kept, then refused on reconnect, taking every deal kept after them off the phone).
     Fewer than 5 tricks only end a game: the first deal kept, taking one side, and only
     one, to the target on its last trick, from the score on screen. "" when it may go. */
  function notKeepable(fields, kept) {
    var order = document.querySelector("#sheet [data-order]");
    var names = sideNames();
    var deal = keptTricks(fields, names.length);
    var total = deal.tricks.reduce(function (sum, n) { return sum + n; }, 0);
    if (total === 5) return "";
    var said = "The tricks add up to " + total + ", not 5";
    if (total > 5 || !order) return said + ".";
    var target = parseInt(order.dataset.target, 10);
    var perTrick = parseInt(order.dataset.perTrick, 10);
    var scores = order.dataset.scores.split(",").map(function (n) { return parseInt(n, 10); });
    var reached = deal.tricks.map(function (n, side) { return scores[side] + n * perTrick >= target; });
    var reaching = reached.indexOf(true);
    if (reaching === -1) return said + ", and no side reaches " + target + ".";
    if (kept) return said + ": with deals waiting to send, a deal is kept only with all 5 tricks.";
    if (reached.lastIndexOf(true) !== reaching) return said + ": play stops when the first side reaches " + target + ".";
    var got = {};
    fields.forEach(function (pair) { got[pair[0]] = pair[1]; });
    if (got.mode === "order" && got["trick_" + total] !== String(reaching)) {
      return said + ": play stops at the trick that takes a side to " + target + ".";
    }
    return "";
  }

  function keep(form) {
    // A double tap keeps the deal once: the second tap comes before the first is stored.
    if (form.dataset.keeping) return Promise.resolve();
    form.dataset.keeping = "1";
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "version") fields.push([name, value]);
    });
    var refused = false;
    return waiting().then(function (before) {
      var why = notKeepable(fields, before.length);
      if (why) {  // said beside the form, the taps kept to put right
        refused = true;
        sayInBox(form.querySelector(".box-slot"), [why, "Nothing was kept: put the tricks right, then save."]);
        return null;
      }
      // A form reloaded with no connection is the copy kept, its key the one a deal
      // kept since has taken: this deal gets a new one, or the server would take it
      // for that deal again. (A deal kept always leaves its form a new key.)
      var key = form.querySelector('input[name="key"]');
      if (before.some(function (deal) { return keyOf(deal.fields) === key.value; })) {
        key.value = window.crypto.randomUUID();
        fields.forEach(function (field) { if (field[0] === "key") field[1] = key.value; });
      }
      // Entered on the game as this phone saw it, after the deals it keeps already.
      var version = seenVersion() + before.length;
      return store("readwrite", function (deals) {
        deals.add({ path: PATH, action: form.getAttribute("action"), fields: fields, version: version });
      });
    }).then(function () {
      if (refused) return null;
      // The form, ready for the next deal: a new key, the taps cleared, the deal to the left.
      form.querySelector('input[name="key"]').value = window.crypto.randomUUID();
      var dealers = form.querySelectorAll('input[name="dealer"]');
      var dealer = Array.prototype.findIndex.call(dealers, function (input) { return input.checked; });
      form.querySelectorAll('input[type="radio"]:not([name="dealer"])')
        .forEach(function (input) { input.checked = false; });
      form.querySelectorAll('input[type="number"]').forEach(function (input) { input.value = "0"; });
      var rest = form.querySelector("[data-split-rest]");
      if (rest && rest.dataset.splitRest) rest.textContent = rest.dataset.splitRest;  // "A 3 – 2 B" goes with the deal
      if (dealers.length && dealer >= 0) {  // the next deal passes left, whichever form
        var left = (dealer + 1) % dealers.length;
        document.querySelectorAll('#sheet form.entry input[name="dealer"][value="' + left + '"]')
          .forEach(function (input) { input.checked = true; });
      }
      updateTotal(form);
      updateTricks(form);
      clearStale();  // a refusal of this deal is answered now, one of an earlier tap stale
      return showWaiting().then(keepTaps);  // the deal's taps go with it
    }).finally(function () { delete form.dataset.keeping; });
  }

  function keyOf(fields) {
    var field = fields.find(function (f) { return f[0] === "key"; });
    return field && field[1];
  }

  function fieldIn(html, name) {
    var input = new DOMParser().parseFromString(html, "text/html").querySelector('input[name="' + name + '"]');
    return input ? input.value : null;
  }

  // A kept deal refused: the sheet as it stands now (the deals sent before it are on
  // it), with the refusal on top: a lost race comes as that sheet, a rule broken or a
  // change refused as a box, put in the sheet's own box.
  function refused(response, text) {
    if (!response.headers.get("HX-Retarget")) {
      window.htmx.swap("#sheet", text, { swapStyle: "outerHTML" });
      keepCopy(text);
      return Promise.resolve();
    }
    return fetch(PATH, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (now) { return now.text(); })
      .then(function (sheet) {
        window.htmx.swap("#sheet", sheet, { swapStyle: "outerHTML" });
        window.htmx.swap("#box-sheet", text, { swapStyle: "innerHTML" });
        keepCopy(sheet);
      });
  }

  // The deals kept after one refused are not sent (each was entered on the score the
  // refused one would have made): they leave the phone, and the sheet says so.
  function dropAfterRefusal(rest) {
    if (!rest.length) return Promise.resolve(0);
    return store("readwrite", function (store) {
      rest.forEach(function (deal) { store.delete(deal.id); });
    }).then(function () { return rest.length; });
  }

  // What became of the deals kept on this phone when one of them was refused: those
  // before it went in, it did not, and those after it were not sent. The refused one and
  // those not sent are said, one a line, with their tricks (`lost`): they are off the
  // phone, and were said nowhere else, to enter again.
  function sayRefused(went, dropped, lost) {
    var line = document.getElementById("sheet-waiting");
    if (!line) return;
    var said = went === 0 ? "" : went === 1 ?
      "1 deal kept on this phone was sent: it is in the score. " :
      went + " deals kept on this phone were sent: they are in the score. ";
    said += (went ? "The next one" : "A deal kept on this phone") + " was refused, and " +
      "nothing of it was saved: the box below says why.";
    if (dropped) {
      said += " " + dropped + (dropped === 1 ? " more deal" : " more deals") + " entered " +
        "after it " + (dropped === 1 ? "was" : "were") + " not sent: check the score and " +
        "enter " + (dropped === 1 ? "it" : "them") + " again if " +
        (dropped === 1 ? "it is" : "they are") + " still right.";
    }
    var parts = [said];
    lost.forEach(function (deal) { parts.push(document.createElement("br"), deal); });
    line.replaceChildren.apply(line, parts);
  }

  // Kept deals that cannot go because the login has ended: why, and the way to log in.
  function sayLoginEnded(n) {
    var line = document.getElementById("sheet-waiting");
    if (!line || !n) return;
    var link = document.createElement("a");
    link.className = "button primary";
    link.href = line.dataset.login;
    link.textContent = "Log in to send " + (n === 1 ? "it" : "them");
    line.replaceChildren(
      n + (n === 1 ? " deal" : " deals") + " waiting to send: your login has ended. " +
        (n === 1 ? "It is" : "They are") + " kept on this phone, and " +
        (n === 1 ? "goes" : "go") + " once you log in again. ",
      link
    );
  }

  // Deals kept on this phone, sent when the connection came back: the sheet is drawn
  // again with them in it, and says so until the next change to it.
  var SENT = "sheet-sent:";
  function saySent() {
    var line = document.getElementById("sheet-waiting"), n;
    try {
      n = parseInt(window.sessionStorage.getItem(SENT + PATH), 10);
      window.sessionStorage.removeItem(SENT + PATH);
    } catch (e) { return; }
    if (!line || !n) return;
    var said = n === 1 ? "1 deal kept on this phone was sent: it is in the score below." :
      n + " deals kept on this phone were sent: they are in the score below.";
    line.textContent = said;
    line.classList.add("sent");  // good news, not a warning
    line.scrollIntoView({ block: "start" });  // the reload keeps the place on the page
    document.addEventListener("htmx:afterSwap", function () {
      if (line.textContent === said) line.textContent = "";
    }, { once: true });
  }

  function sync() {
    if (syncing || !navigator.onLine || !window.indexedDB) return;
    syncing = true;
    var sent = 0, dropped = 0, loggedOut = false, refusedOne = false, lost = [];
    // The deals as listed under Deals, to say one refused, and those after it, in words.
    var sheet = document.getElementById("sheet");
    var first = sheet ? parseInt(sheet.dataset.dealNumber, 10) : 1, names = sideNames();
    function inWords(deal, index, what) {
      var words = names.length ? ": " + keptInWords(deal, names) : "";
      return "Deal " + (first + index) + ", " + what + words + ".";
    }
    waiting().then(function (deals) {
      if (!deals.length) return null;
      return fetch(PATH, { headers: { "HX-Request": "true" }, credentials: "same-origin", signal: giveUp() })
        .then(function (response) { return response.text(); })
        .then(function (html) {
          // The token of the login it is sent under (a deal kept from before a login
          // since would be refused with its own).
          var token = fieldIn(html, "csrfmiddlewaretoken");
          var current = fieldIn(html, "version");  // for a deal kept by an older sheet.js
          return deals.reduce(function (chain, deal, index) {
            return chain.then(function (stop) {
              if (stop) return true;
              var body = new URLSearchParams(deal.fields);
              body.set("version", deal.version || current);
              if (token) body.set("csrfmiddlewaretoken", token);
              return fetch(deal.action, {
                method: "POST", body: body, credentials: "same-origin",
                headers: { "HX-Request": "true" }, signal: giveUp()
              }).then(function (response) {
                // Refused unread (no login's token): the deal stays on the phone.
                if (response.headers.get("HX-Refresh") === "true") {
                  loggedOut = !token;
                  return true;
                }
                return response.text().then(function (text) {
                  if (response.status === 200) current = fieldIn(text, "version") || current;
                  return store("readwrite", function (store) { store.delete(deal.id); })
                    .then(function () {
                      sent += 1;
                      if (response.status === 200) return false;
                      var rest = deals.slice(index + 1);
                      lost = [inWords(deal, index, "refused")].concat(rest.map(function (later, after) {
                        return inWords(later, index + 1 + after, "not sent");
                      }));
                      return refused(response, text).then(function () {
                        return dropAfterRefusal(rest);
                      }).then(function (n) {
                        dropped = n;
                        refusedOne = true;
                        return true;
                      });
                    });
                });
              });
            });
          }, Promise.resolve(false));
        });
    }).then(function (stopped) {
      syncing = false;
      if (sent && !stopped) {
        // Said once the sheet is drawn again with them (`saySent`).
        try { window.sessionStorage.setItem(SENT + PATH, String(sent)); } catch (e) { /* private mode */ }
        window.location.reload();
      } else showWaiting().then(function (left) {
        if (refusedOne) sayRefused(sent - 1, dropped, lost);
        if (loggedOut) sayLoginEnded(left.length);
      });
    }, function () {
      syncing = false;
      unreachable = navigator.onLine;
      showWaiting();
    });
  }

  function isEntry(form) {
    return Boolean(form.matches && form.matches("[data-split], [data-steppers], [data-order]"));
  }

  function canKeep() {
    return Boolean(window.indexedDB && window.crypto.randomUUID);
  }

  // A deal is kept with no connection, or while the site cannot be reached, or behind
  // deals kept already (sent in order: never before them).
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (!isEntry(form) || !canKeep() || (navigator.onLine && !unreachable && !keptCount())) return;
    event.preventDefault();
    keep(form).then(function () {
      if (navigator.onLine) sync();  // those kept go now, if they can
    });
  });

  /* Wi-Fi with no internet behind it: the phone believes it is online, so a deal is
     sent, and the sending fails, or hangs until SEND_TIMEOUT. The deal is then kept on
     the phone as with no connection, under its key: had it reached the site after all,
     sending it again gives the same deal, never a second. No "online" event comes when
     such a connection is back, so the deals kept are tried again every RETRY ms. */
  var SEND_TIMEOUT = 10000, RETRY = 10000;

  document.addEventListener("htmx:configRequest", function (event) {
    if (isEntry(event.detail.elt)) event.detail.timeout = SEND_TIMEOUT;
  });

  function notSent(event) {
    unreachable = true;
    if (isEntry(event.detail.elt) && canKeep()) {
      keep(event.detail.elt);
      return;
    }
    sayNoConnection("The connection dropped before an answer came. Nothing you entered is " +
      "lost: when the connection is back, check the score above and tap again if it is not there.");
  }
  document.addEventListener("htmx:sendError", notSent);
  document.addEventListener("htmx:timeout", notSent);

  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.xhr && event.detail.xhr.status) unreachable = false;  // an answer came
  });

  // A request of `sync` gives up after SEND_TIMEOUT, where the browser can.
  function giveUp() {
    return window.AbortSignal && AbortSignal.timeout ? AbortSignal.timeout(SEND_TIMEOUT) : undefined;
  }

  // Not while tricks of the next deal are being tapped: the sheet is drawn again once
  // the deals kept are sent, and the taps would go. Its Save sends them all.
  function retryKept() {
    var tapping = document.querySelector('#sheet form.entry input[name="first"]:checked, ' +
      '#sheet form.entry input[name^="trick_"]:checked') ||
      Array.prototype.some.call(document.querySelectorAll('#sheet form.entry input[type="number"]'),
        function (input) { return input.value !== "0"; });
    if (unreachable && keptCount() && navigator.onLine && !syncing && !tapping) sync();
  }

  // Undo, Confirm and the other buttons are not kept on the phone: with no connection
  // they say so in place, and change nothing. A request the connection drops says so too.
  function sayNoConnection(text) {
    var box = document.getElementById("box-sheet");
    if (!box) return;
    var alert = document.createElement("div");
    alert.className = "entry-errors";
    alert.setAttribute("role", "alert");
    var line = document.createElement("p");
    line.textContent = text;
    alert.appendChild(line);
    box.replaceChildren(alert);
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (navigator.onLine || !form.matches || isEntry(form)) return;
    event.preventDefault();
    sayNoConnection("No connection: nothing was changed. Tap it again when the connection " +
      "is back. Deals you enter meanwhile are kept on this phone.");
  });

  window.addEventListener("online", sync);
  window.addEventListener("offline", showWaiting);

  /* The copy kept for no connection was the page as it was at its last full load: the
     deals saved since, each drawn in place, were not in it, and a reload with no
     connection showed an older deal number and score, fewer deals, as if they were
     lost. Each sheet the server draws in place (`html`, its own answer: the screen's
     sheet is changed here) now goes into the copy, with no request more. A refusal that
     comes with the sheet as it stands goes in too, without its box: what answered a tap
     is old news on a reload, as is the line on top. One copy at a time, in order, so an
     older sheet never lands last. */
  var SHELL = "sheet-shell-v1";
  var copying = Promise.resolve();

  function keepCopy(html) {
    if (!window.caches) return;
    var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("sheet");
    if (!fresh || !fresh.dataset.version) return;  // a game taken back: no sheet to keep
    fresh.querySelectorAll(".conflict, .box-slot > *").forEach(function (el) { el.remove(); });
    copying = copying.then(function () {
      return caches.open(SHELL);
    }).then(function (cache) {
      return cache.match(PATH).then(function (kept) {
        if (!kept) return null;  // no copy kept of this page: none is made here
        return kept.text().then(function (text) {
          var page = new DOMParser().parseFromString(text, "text/html");
          var sheet = page.getElementById("sheet");
          var said = page.getElementById("sheet-said");
          if (!sheet) return null;
          sheet.replaceWith(fresh);
          if (said) said.replaceChildren();
          // Its headers as served: its type, and the policy whose nonce lets its scripts
          // run (the page keeps the nonce). Not its length, which the sheet changed.
          var headers = new Headers(kept.headers);
          headers.delete("Content-Length");
          var copy = "<!DOCTYPE html>\n" + page.documentElement.outerHTML;
          return cache.put(PATH, new Response(copy, { status: kept.status, headers: headers }));
        });
      });
    }).catch(function () { /* the copy stays as it was; the sheet still works online */ });
  }

  // Keep the screen awake while a sheet is open, where the browser can.
  function stayAwake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    if (!document.querySelector("#sheet form.entry")) return;
    navigator.wakeLock.request("screen").catch(function () { /* not allowed: fine */ });
  }
  document.addEventListener("visibilitychange", stayAwake);

  /* Two phones scoring one game (the organiser's and a scorer link's): each sheet asks
     every 20 s, and when it is looked at again, whether the other changed the game: a
     newer version, or at the same version what may be done on it (a link withdrawn, the
     match's next game started). If so and nothing is tapped here, the sheet as it stands
     comes in; with taps here it says so, beside them, as their save would be refused. */
  function untouched(sheet) {
    return Array.prototype.every.call(sheet.querySelectorAll("form.entry input"), function (input) {
      if (input.type === "radio" || input.type === "checkbox") return input.checked === input.defaultChecked;
      return input.type === "hidden" || input.value === input.defaultValue;
    });
  }

  function changedElsewhere(fresh, now) {
    var newer = parseInt(fresh.dataset.version, 10), shown = parseInt(now.dataset.version, 10);
    // Never an older game: a save made here while this was asked is newer than the answer.
    return newer > shown || (newer === shown && fresh.dataset.state !== now.dataset.state);
  }

  function sayChangedBesideTaps(now) {
    var form = Array.prototype.find.call(now.querySelectorAll("form.entry"), function (f) {
      return !untouched(f);
    });
    var slot = form && form.querySelector(".box-slot");
    if (!slot || slot.querySelector("[data-changed]")) return;
    var box = document.createElement("div");
    var line = document.createElement("p");
    var link = document.createElement("a");
    box.className = "entry-errors";
    box.setAttribute("role", "alert");
    box.dataset.changed = "";
    line.textContent = "Another phone saved a change to this game, so what you tapped " +
      "here would not be saved. ";
    link.href = PATH;
    link.className = "button primary";
    link.textContent = "See the game as it stands now";
    box.append(line, link);
    slot.replaceChildren(box);
    showAboveBar(form, slot, "instant");
  }

  function lookForChanges() {
    var sheet = document.getElementById("sheet");
    // Not with deals kept on this phone (they are sent first), nor over a login ended.
    if (!sheet || document.visibilityState !== "visible" || !navigator.onLine || syncing ||
        parseInt(sheet.dataset.kept || "0", 10) || sheet.querySelector("[data-box][data-login]")) return;
    // With the tag of the sheet shown: a bare 304 while nothing it is drawn from changed.
    var asked = { "HX-Request": "true", "If-None-Match": '"' + sheet.dataset.tag + '"' };
    fetch(PATH, { headers: asked, cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (text) {
        var fresh = text && new DOMParser().parseFromString(text, "text/html").getElementById("sheet");
        var now = document.getElementById("sheet");
        if (!fresh || !now || !changedElsewhere(fresh, now)) return;
        if (!untouched(now)) {
          sayOnTop("");  // an "Up to date" of an earlier look is not so now
          sayChangedBesideTaps(now);
          return;
        }
        var played = parseInt(fresh.dataset.version, 10) > parseInt(now.dataset.version, 10);
        var trickByTrick = now.querySelector("details.by-trick[open]");
        window.htmx.swap("#sheet", fresh.outerHTML, { swapStyle: "outerHTML" });
        keepCopy(text);
        var opened = document.querySelector("#sheet details.by-trick");
        if (trickByTrick && opened) opened.open = true;  // left as it was
        // A deal, an undo or a confirmation; else what may be done changed (a link
        // withdrawn, the next game started), which the sheet itself now says.
        sayOnTop(played ? "Up to date: this game was changed on another phone." : "Up to date.");
        document.getElementById("sheet-said").scrollIntoView({ block: "start" });
      }, function () { /* no connection: asked again later */ });
  }

  function watch() {
    var watching = document.getElementById("sheet-watch");
    if (!watching) return;
    window.setInterval(lookForChanges, parseInt(watching.dataset.every, 10));
    document.addEventListener("visibilitychange", lookForChanges);
  }

  function start() {
    watch();
    window.setInterval(retryKept, RETRY);
    seenVersion();
    wake(document);
    restore();
    stayAwake();
    showWaiting().then(function (deals) {
      tapsBack();
      if (deals.length) sync();
      else saySent();
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
