// Signed moves (docs/replays.md, "Signed moves"): this browser's ECDSA P-256 key pair, made once
// per browser profile and account (a guest's is the profile's) and kept in IndexedDB. The private
// key is made non-extractable, so no script, this page's included, can read it out: the browser
// signs with it and nothing else can.
// What a seat signs is record/seat_keys.py's signed_text: the canonical JSON (record/canonical.py)
// of {game_id, version, command: {type, seat, args}}, the signature raw r || s in base64url.
(function () {
  "use strict";

  const DATABASE = "archipelago-signing";
  const STORE = "keys";
  // One key per account and device: a signed-in person signs with the key of that account on
  // this browser profile, a guest with the profile's own, so that two people sharing a computer
  // under their own accounts never sign with each other's key.
  const account = document.body && document.body.dataset.account;
  const PERSON = account ? "account:" + account.normalize("NFKC").trim().toLowerCase() : "person";
  const ALGORITHM = { name: "ECDSA", namedCurve: "P-256" };
  const SIGNING = { name: "ECDSA", hash: "SHA-256" };

  // Whether this browser can keep and use a key here (WebCrypto needs a secure context: https,
  // or the machine itself).
  function supported() {
    return Boolean(window.isSecureContext && window.crypto && crypto.subtle && window.indexedDB);
  }

  function request(r) {
    return new Promise(function (resolve, reject) {
      r.onsuccess = function () { resolve(r.result); };
      r.onerror = function () { reject(r.error); };
    });
  }

  function open() {
    const opening = indexedDB.open(DATABASE, 1);
    opening.onupgradeneeded = function () { opening.result.createObjectStore(STORE); };
    return request(opening);
  }

  async function stored(db) {
    return request(db.transaction(STORE, "readonly").objectStore(STORE).get(PERSON));
  }

  // The key pair of this browser profile; made on first use when `make` is true, else null then.
  // Two tabs making one at once keep the first stored: `add` refuses to replace it.
  async function keyPair(make) {
    if (!supported()) throw new Error("this browser cannot sign here: it needs WebCrypto and IndexedDB over https");
    const db = await open();
    try {
      const kept = await stored(db);
      if (kept || make === false) return kept || null;
      const made = await crypto.subtle.generateKey(ALGORITHM, false, ["sign", "verify"]);
      try {
        await request(db.transaction(STORE, "readwrite").objectStore(STORE).add(made, PERSON));
        return made;
      } catch (error) {
        return await stored(db);
      }
    } finally {
      db.close();
    }
  }

  // The public key as the service records it is a JWK; WebCrypto's `ext` and `key_ops` come along.
  async function publicJwk() {
    return crypto.subtle.exportKey("jwk", (await keyPair(true)).publicKey);
  }

  // Whether `jwk` (a seat's recorded key) is this browser's key; false when it has none yet.
  async function isMine(jwk) {
    const pair = await keyPair(false);
    if (!pair || !jwk) return false;
    const own = await crypto.subtle.exportKey("jwk", pair.publicKey);
    return ["kty", "crv", "x", "y"].every(function (name) { return own[name] === jwk[name]; });
  }

  // --- canonical JSON, as record/canonical.py writes what the service reads from JSON.stringify

  // json.dumps(ensure_ascii=False): only '"', '\' and the control characters are escaped.
  function stringText(s) {
    let out = "\"";
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      const code = s.charCodeAt(i);
      if (c === "\"") out += "\\\"";
      else if (c === "\\") out += "\\\\";
      else if (c === "\n") out += "\\n";
      else if (c === "\r") out += "\\r";
      else if (c === "\t") out += "\\t";
      else if (c === "\b") out += "\\b";
      else if (c === "\f") out += "\\f";
      else if (code < 0x20) out += "\\u" + code.toString(16).padStart(4, "0");
      else out += c;
    }
    return out + "\"";
  }

  // Python's repr of a float: the shortest digits that read back, in fixed notation while the
  // decimal point falls within 16 digits, else as d.ddde+XX.
  function pythonFloat(x) {
    const sign = x < 0 ? "-" : "";
    const [mantissa, exponent] = Math.abs(x).toExponential().split("e");
    const digits = mantissa.replace(".", "");
    const point = Number(exponent) + 1;
    if (point <= -4 || point > 16) {
      const e = point - 1;
      const shown = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
      return sign + shown + "e" + (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0");
    }
    if (point <= 0) return sign + "0." + "0".repeat(-point) + digits;
    if (point >= digits.length) return sign + digits + "0".repeat(point - digits.length) + ".0";
    return sign + digits.slice(0, point) + "." + digits.slice(point);
  }

  // JSON.stringify writes an integral number below 1e21 as digits (Python reads an int), any
  // other as a float: the text is what Python makes of what this page sends. Those digits are
  // String(x)'s (2**64 is sent as 18446744073709552000), not the double's exact value.
  function numberText(x) {
    if (!Number.isFinite(x)) throw new Error("a number JSON cannot carry");
    if (Number.isInteger(x) && Math.abs(x) < 1e21) return String(x);
    return pythonFloat(x);
  }

  // Python sorts keys by code point; JavaScript's sort compares UTF-16 units.
  function byCodePoint(a, b) {
    const x = Array.from(a);
    const y = Array.from(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const d = x[i].codePointAt(0) - y[i].codePointAt(0);
      if (d !== 0) return d;
    }
    return x.length - y.length;
  }

  function canonical(value) {
    if (value === null) return "null";
    if (value === true) return "true";
    if (value === false) return "false";
    if (typeof value === "number") return numberText(value);
    if (typeof value === "string") return stringText(value);
    if (Array.isArray(value)) {
      return "[" + value.map(function (v) { return v === undefined ? "null" : canonical(v); }).join(",") + "]";
    }
    if (typeof value === "object") {
      const keys = Object.keys(value).filter(function (k) { return value[k] !== undefined; }).sort(byCodePoint);
      return "{" + keys.map(function (k) { return stringText(k) + ":" + canonical(value[k]); }).join(",") + "}";
    }
    throw new Error("not a JSON value");
  }

  // record/seat_keys.py signed_text: `body` is the command as sent, its type and its arguments.
  function signedText(gameId, version, seat, body) {
    const args = {};
    Object.keys(body).forEach(function (k) { if (k !== "type") args[k] = body[k]; });
    const command = { type: body.type, seat: seat, args: args };
    return canonical({ game_id: gameId, version: version, command: command });
  }

  function b64url(bytes) {
    let binary = "";
    new Uint8Array(bytes).forEach(function (b) { binary += String.fromCharCode(b); });
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // The Archipelago-Signature of `body` sent by `seat` with If-Match `version`.
  async function sign(gameId, version, seat, body) {
    const pair = await keyPair(true);
    const text = new TextEncoder().encode(signedText(gameId, version, seat, body));
    return b64url(await crypto.subtle.sign(SIGNING, pair.privateKey, text));
  }

  window.ArchipelagoSigning = {
    supported: supported,
    keyPair: keyPair,
    publicJwk: publicJwk,
    isMine: isMine,
    canonical: canonical,
    signedText: signedText,
    sign: sign,
  };
})();
