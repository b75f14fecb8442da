// The organizer's page: keeps the organizer's token (from the URL fragment, then localStorage)
// and sends each command of the panel through the JSON API with it. The panel is rendered by
// the server and replaced after every event (tournament.js), so what it offers follows the
// tournament; a refusal is said in words (the problem's `detail`), next to nothing else.
(function () {
  "use strict";
  const root = document.getElementById("tournament");
  if (!root || !document.getElementById("organizer-key")) return;
  const id = root.dataset.tournamentId;
  const api = "/tournaments/" + encodeURIComponent(id);
  const tokenKey = "archipelago:organizer:" + id;
  const message = document.getElementById("organizer-message");

  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("organizer")) {
    localStorage.setItem(tokenKey, fragment.get("organizer"));
    history.replaceState(null, "", location.pathname + location.search);
  }
  const token = localStorage.getItem(tokenKey);

  function say(text, code) {
    message.textContent = text;
    message.setAttribute("role", code ? "alert" : "status");
    if (code) message.dataset.code = code;
    else delete message.dataset.code;
  }

  async function checkToken() {
    if (!token) {
      document.getElementById("organizer-missing").hidden = false;
      return;
    }
    const answer = await fetch(api, { headers: { Authorization: "Bearer " + token }, cache: "no-store" });
    if (answer.status === 401) {
      document.getElementById("organizer-missing").hidden = false;
      say("This browser's organizer's token is not valid for this tournament.", "invalid_token");
      return;
    }
    document.getElementById("organizer-held").hidden = false;
    document.getElementById("organizer-link").value = location.origin + location.pathname + "#organizer=" + token;
  }

  // A refusal in words: the problem's detail, each field's messages after it (those that do
  // not say the detail again), and its code.
  function refusal(body) {
    let text = body.detail || body.title || "Refused";
    const errors = body.errors || {};
    const said = [];
    Object.keys(errors).forEach(function (name) {
      const words = [].concat(errors[name]).map(function (m) {
        return typeof m === "string" ? m : JSON.stringify(m);
      }).filter(function (m) { return m !== body.detail; });
      if (words.length) said.push(name + ": " + words.join(" "));
    });
    if (said.length) text += ": " + said.join("; ");
    return "Refused: " + text + " (" + body.code + ")";
  }

  function whole(value) {
    return value === "" ? null : Number(value);
  }

  function correction(form) {
    const option = form.elements.game_id.selectedOptions[0];
    const seats = Number(option.dataset.seats);
    const totals = [];
    for (let seat = 0; seat < seats; seat += 1) totals.push(whole(form.elements["total-" + seat].value));
    const result = { winner: whole(form.elements.winner.value), totals: totals, reason: form.elements.end.value };
    if (result.reason === "premature") result.round = whole(form.elements.end_round.value);
    return { type: "CorrectResult", game_id: option.value, result: result, reason: form.elements.reason.value.trim() };
  }

  // The request a panel's control stands for: [path, body, what to say once done].
  function request(control) {
    const type = control.dataset.command;
    const form = control.tagName === "FORM" ? control : null;
    if (type === "RegisterEntrant") {
      const body = { kind: form.elements.kind.value };
      const name = form.elements.name.value.trim();
      if (name) body.name = name;
      if (body.kind === "ai") body.level = Number(form.elements.level.value);
      return ["/entrants", body, "Entrant added."];
    }
    if (type === "GiveBye" || type === "WithdrawEntrant") {
      return ["/commands", { type: type, entrant: form.elements.entrant.value }, type === "GiveBye" ? "Bye given." : "Entrant withdrawn."];
    }
    if (type === "ForfeitSeat") {
      const chosen = form.elements.seat.value.split(" ");
      const body = { type: type, game_id: chosen[0], seat: Number(chosen[1]), reason: form.elements.reason.value };
      return ["/commands", body, "Seat forfeited."];
    }
    if (type === "CorrectResult") return ["/commands", correction(form), "Result corrected."];
    const done = { StartTournament: "Started.", PairRound: "Round paired.", CloseTournament: "Closed." };
    return ["/commands", { type: type }, done[type] || "Done."];
  }

  async function send(control) {
    const [path, body, done] = request(control);
    say("Sending…", null);
    let answer;
    try {
      answer = await fetch(api + path, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          Authorization: "Bearer " + (token || ""),
        },
        body: JSON.stringify(body),
      });
    } catch (failure) {
      say("The service did not answer; nothing was sent. Try again.", "network");
      return;
    }
    const answered = await answer.json().catch(function () { return {}; });
    if (!answer.ok) {
      say(refusal(answered), answered.code || String(answer.status));
      return;
    }
    // The organizer's evidence of each change it made, kept as an entrant's are (receipts.js).
    if (answered.receipt && window.ArchipelagoReceipts) {
      await window.ArchipelagoReceipts.keep(answered.receipt).catch(function () { return null; });
    }
    if (answered.token) {
      const link = location.origin + "/t/" + encodeURIComponent(id) + "#token=" + answered.token;
      say("Entrant " + answered.entrant + " added. Hand them their link (shown this once): " + link, null);
    } else {
      say(done, null);
    }
    document.dispatchEvent(new CustomEvent("tournament:changed"));
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest("button[data-command]");
    if (button && button.closest("#organizer")) send(button);
  });
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!form.dataset || !form.dataset.command || !form.closest("#organizer")) return;
    event.preventDefault();
    send(form);
  });

  checkToken();
})();
