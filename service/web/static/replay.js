// The replay viewer: steps through the game by buttons, the slider and the keyboard, swapping
// in the server-rendered board of each step (built for this browser's seat when it holds the
// game's token, else for a spectator), and posts notes to the annotations API.
(function () {
  "use strict";
  const root = document.getElementById("replay");
  if (!root) return;
  const gameId = root.dataset.gameId;
  const tokenKey = "archipelago:token:" + gameId; // the play page keeps the seat's token here
  const slider = document.getElementById("step");
  const counter = document.getElementById("counter");
  const frameBox = document.getElementById("frame");
  const logBox = document.getElementById("log-box");
  const message = document.getElementById("message");
  const form = document.getElementById("annotate");
  const picked = document.getElementById("picked");
  const hidden = new Set();
  let token = localStorage.getItem(tokenKey);
  let versions = [];
  let index = Number(slider.value);
  let asked = 0; // only the answer to the latest request is shown
  const pick = { islands: [], lines: [] };

  function auth() {
    return token ? { Authorization: "Bearer " + token } : {};
  }

  function say(text) {
    message.textContent = text;
  }

  async function problem(answer) {
    try {
      const body = await answer.json();
      return body.detail || body.title || String(answer.status);
    } catch (e) {
      return String(answer.status);
    }
  }

  async function fetchText(url) {
    const answer = await fetch(url, { headers: auth(), cache: "no-store" });
    if (answer.status === 401 && token) {
      // A token this game does not know: forget it and replay as a spectator.
      localStorage.removeItem(tokenKey);
      token = null;
      say("This browser's seat is not valid for this game: you replay it as a spectator.");
      return fetchText(url);
    }
    if (!answer.ok) throw new Error(await problem(answer));
    return answer.text();
  }

  function readVersions() {
    versions = Array.from(logBox.querySelectorAll("#log li[data-version]"), (li) => Number(li.dataset.version));
    slider.max = String(Math.max(versions.length - 1, 0));
  }

  async function loadLog() {
    logBox.innerHTML = await fetchText(root.dataset.logUrl);
    readVersions();
    const seat = logBox.querySelector("#log").dataset.seat;
    document.getElementById("viewer").textContent =
      seat === "" ? "You are watching the finished game." : "You replay the game as seat " + (Number(seat) + 1) + ", as you saw it.";
    document.getElementById("author-field").hidden = seat !== "";
  }

  async function show(step) {
    if (!versions.length) return;
    index = Math.min(Math.max(step, 0), versions.length - 1);
    slider.value = String(index);
    counter.textContent = index + 1 + " / " + versions.length;
    const params = new URLSearchParams({ version: String(versions[index]) });
    hidden.forEach((layer) => params.append("hide", layer));
    const mine = ++asked;
    try {
      const html = await fetchText(root.dataset.frameUrl + "?" + params);
      if (mine !== asked) return;
      const focused = document.activeElement && frameBox.contains(document.activeElement) ? document.activeElement : null;
      const focusKey = focused && (focused.id || focused.getAttribute("data-island") || focused.getAttribute("data-line") || focused.value);
      frameBox.innerHTML = html;
      root.dataset.version = String(versions[index]);
      // The board is not a live region (it would be read out whole): the step's words are.
      const words = frameBox.querySelector("#words");
      document.getElementById("announce").textContent = words ? words.textContent : "";
      markCurrent();
      markPicked();
      if (focusKey) restoreFocus(focusKey);
    } catch (error) {
      say("This step could not be loaded: " + error.message);
    }
  }

  function restoreFocus(key) {
    const again = Array.from(frameBox.querySelectorAll("[id], [data-island], [data-line], input")).find(
      (e) => e.id === key || e.getAttribute("data-island") === key || e.getAttribute("data-line") === key || e.value === key
    );
    if (again) again.focus();
  }

  function markCurrent() {
    logBox.querySelectorAll("#log li").forEach((li) => {
      if (Number(li.dataset.step) === index) {
        li.setAttribute("aria-current", "step");
        scrollInto(li.parentElement, li);
      } else {
        li.removeAttribute("aria-current");
      }
    });
  }

  // Scrolls the move list alone (scrollIntoView would move the whole page away from the board).
  function scrollInto(list, item) {
    const top = item.offsetTop;
    if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }

  function markPicked() {
    frameBox.querySelectorAll("[data-island], [data-line]").forEach((e) => {
      const on = pick.islands.includes(e.dataset.island) || pick.lines.includes(e.dataset.line);
      e.classList.toggle("picked", on);
      e.setAttribute("aria-pressed", on ? "true" : "false");
    });
    const names = pick.islands.concat(pick.lines.map((l) => l.replace("-", "–")));
    picked.textContent = names.length ? "Picked for a highlight: " + names.join(", ") : "Nothing picked on the board.";
  }

  function toggle(list, item) {
    const at = list.indexOf(item);
    if (at >= 0) list.splice(at, 1);
    else list.push(item);
  }

  function pickFrom(target) {
    const hook = target.closest("[data-island], [data-line]");
    if (!hook || !frameBox.contains(hook)) return false;
    if (hook.dataset.island) toggle(pick.islands, hook.dataset.island);
    else toggle(pick.lines, hook.dataset.line);
    document.getElementById("kind").value = "highlight";
    showMarkField();
    markPicked();
    return true;
  }

  function showMarkField() {
    document.getElementById("mark-field").hidden = document.getElementById("kind").value !== "mark";
  }

  async function annotate(event) {
    event.preventDefault();
    const data = new FormData(form);
    const kind = data.get("kind");
    const note = { version: versions[index], kind: kind };
    const text = String(data.get("text") || "").trim();
    if (text) note.text = text;
    if (kind === "mark") note.mark = data.get("mark");
    if (kind === "highlight") {
      if (pick.islands.length) note.islands = pick.islands.slice();
      if (pick.lines.length) note.lines = pick.lines.map((l) => l.split("-"));
    }
    if (!token) note.author = String(data.get("author") || "").trim();
    const answer = await fetch(root.dataset.annotationsUrl, {
      method: "POST",
      headers: Object.assign({ "Content-Type": "application/json" }, auth()),
      body: JSON.stringify(note),
    });
    if (!answer.ok) {
      say("The note was not added: " + (await problem(answer)));
      return;
    }
    say("");
    form.querySelector("textarea[name=text]").value = "";
    pick.islands = [];
    pick.lines = [];
    await loadLog();
    await show(index);
  }

  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("prev").addEventListener("click", () => show(index - 1));
  document.getElementById("next").addEventListener("click", () => show(index + 1));
  document.getElementById("last").addEventListener("click", () => show(versions.length - 1));
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.getElementById("kind").addEventListener("change", showMarkField);
  form.addEventListener("submit", annotate);
  logBox.addEventListener("click", (event) => {
    const link = event.target.closest("[data-step]");
    if (link && link.tagName === "BUTTON") show(Number(link.dataset.step));
  });
  frameBox.addEventListener("click", (event) => pickFrom(event.target));
  frameBox.addEventListener("change", (event) => {
    if (event.target.name !== "layer") return;
    if (event.target.checked) hidden.delete(event.target.value);
    else hidden.add(event.target.value);
    show(index);
  });
  frameBox.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && pickFrom(event.target)) event.preventDefault();
  });
  document.addEventListener("keydown", (event) => {
    const typing = event.target.closest("input:not([type=range]), textarea, select");
    if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
    // The slider moves itself on arrows, Home and End (its input event shows the step).
    if (event.target === slider) return;
    const moves = { ArrowLeft: index - 1, ArrowUp: index - 1, ArrowRight: index + 1, ArrowDown: index + 1, Home: 0, End: versions.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    show(moves[event.key]);
  });

  async function start() {
    showMarkField();
    readVersions();
    const wanted = Number(new URLSearchParams(location.hash.slice(1)).get("version"));
    if (!token && root.dataset.finished !== "true") {
      say("Only the players of a game still being played replay it. Open your seat's link first, or watch the game live.");
      return;
    }
    try {
      const untouched = asked;
      if (token || !versions.length) await loadLog();
      document.getElementById("author-field").hidden = Boolean(token);
      // A person who already stepped while the seat's log loaded stays where they went.
      const at = wanted ? versions.findIndex((v) => v >= wanted) : -1;
      await show(asked !== untouched ? index : at >= 0 ? at : 0);
    } catch (error) {
      say("The replay could not be loaded: " + error.message);
    }
  }
  start();
})();
