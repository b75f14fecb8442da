// Accounts in the browser: passkeys (sign in with one, add one) through the JSON API, and the
// seats of a signed-in person kept with the account, so that another browser gets them back.
(function () {
  "use strict";

  function toBytes(text) {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
    return Uint8Array.from(atob(base64), function (c) { return c.charCodeAt(0); });
  }

  function toText(buffer) {
    let binary = "";
    new Uint8Array(buffer).forEach(function (b) { binary += String.fromCharCode(b); });
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  async function post(url, body) {
    const answer = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body || {}),
      credentials: "same-origin",
    });
    let json = {};
    try { json = await answer.json(); } catch (error) { json = {}; }
    if (!answer.ok) throw new Error(json.detail || answer.statusText);
    return json;
  }

  function problem(text) {
    const box = document.getElementById("passkey-problem");
    if (!box) return;
    box.textContent = text;
    box.hidden = !text;
  }

  function descriptors(list) {
    return (list || []).map(function (c) { return Object.assign({}, c, { id: toBytes(c.id) }); });
  }

  function credentialJson(credential) {
    const response = credential.response;
    const json = {
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      clientExtensionResults: credential.getClientExtensionResults(),
      response: { clientDataJSON: toText(response.clientDataJSON) },
    };
    if (response.attestationObject) {
      json.response.attestationObject = toText(response.attestationObject);
      json.response.transports = response.getTransports ? response.getTransports() : [];
    } else {
      json.response.authenticatorData = toText(response.authenticatorData);
      json.response.signature = toText(response.signature);
      if (response.userHandle) json.response.userHandle = toText(response.userHandle);
    }
    if (credential.authenticatorAttachment) json.authenticatorAttachment = credential.authenticatorAttachment;
    return json;
  }

  async function signInWithPasskey(button) {
    problem("");
    try {
      const started = await post("/session/passkey/options");
      const options = Object.assign({}, started.options, {
        challenge: toBytes(started.options.challenge),
        allowCredentials: descriptors(started.options.allowCredentials),
      });
      const credential = await navigator.credentials.get({ publicKey: options });
      await post("/session/passkey", { ceremony: started.ceremony, credential: credentialJson(credential) });
      location.assign(button.dataset.next || "/me");
    } catch (error) {
      problem("Signing in with a passkey failed: " + error.message);
    }
  }

  async function addPasskey() {
    problem("");
    try {
      const started = await post("/account/passkeys/options");
      const o = started.options;
      const options = Object.assign({}, o, {
        challenge: toBytes(o.challenge),
        user: Object.assign({}, o.user, { id: toBytes(o.user.id) }),
        excludeCredentials: descriptors(o.excludeCredentials),
      });
      const credential = await navigator.credentials.create({ publicKey: options });
      await post("/account/passkeys", { ceremony: started.ceremony, credential: credentialJson(credential) });
      const count = document.getElementById("passkey-count");
      const shown = Number((count.textContent.match(/\d+/) || ["0"])[0]) + 1;
      count.textContent = shown === 1 ? "1 passkey" : shown + " passkeys";
    } catch (error) {
      problem("Adding a passkey failed: " + error.message);
    }
  }

  // A signed-in person's seat: one that arrives by a link (an invite, a rematch) is kept with the
  // account; without any, the account's own (taken in another browser) is fetched and the page
  // opened again. A token this browser kept from before is never handed to the account: on a
  // shared computer it may be a guest's.
  async function keepSeat(game) {
    const gameId = game.dataset.gameId;
    const tokenKey = "archipelago:token:" + gameId;
    const arrived = new URLSearchParams(location.hash.slice(1)).get("token");
    if (arrived) {
      try { await post("/account/seats", { game_id: gameId, token: arrived }); } catch (error) { /* a dead token */ }
      return;
    }
    if (localStorage.getItem(tokenKey)) return;
    const answer = await fetch("/account/seats/" + encodeURIComponent(gameId), { credentials: "same-origin" });
    if (!answer.ok) return;
    const held = await answer.json();
    if (held.seats.length) {
      localStorage.setItem(tokenKey, held.seats[0].token);
      location.reload();
    }
  }

  const signIn = document.getElementById("passkey-sign-in");
  if (signIn) {
    if (!window.PublicKeyCredential) signIn.hidden = true;
    signIn.addEventListener("click", function () { signInWithPasskey(signIn); });
  }
  const add = document.getElementById("passkey-add");
  if (add) {
    if (!window.PublicKeyCredential) add.hidden = true;
    add.addEventListener("click", addPasskey);
  }
  const game = document.getElementById("game");
  if (game && document.body.dataset.account) keepSeat(game);
})();
