// Narrow screens: the board's picture shows the map alone, at the page's full width. Its
// legend repeats what the panel beside or below it says in text, and at 390 px it would take
// a third of the width and leave the islands and lines too small to read or tap.
// Fingers: once a card is picked, a tap on the board goes to the nearest of its lines (within
// half a 44 px target), not to whichever widened hit band was drawn last.
(function () {
  "use strict";
  const narrow = window.matchMedia("(max-width: 40rem)");
  const fingers = window.matchMedia("(max-width: 40rem), (pointer: coarse)");
  const REACH = 24; // CSS px: half of a 44 px tap target, and the slack of points 2 units apart

  function fit() {
    document.querySelectorAll("svg[data-map-width]").forEach(function (svg) {
      const box = (svg.dataset.fullBox = svg.dataset.fullBox || svg.getAttribute("viewBox"));
      const [x, y, width, height] = box.split(/\s+/);
      const shown = narrow.matches ? [x, y, svg.dataset.mapWidth, height].join(" ") : box;
      if (svg.getAttribute("viewBox") !== shown) svg.setAttribute("viewBox", shown);
      svg.setAttribute("width", narrow.matches ? svg.dataset.mapWidth : width);
    });
  }

  // Each drawn line's points every 2 units, in the picture's own units (kept per path element:
  // a re-drawn board brings new ones).
  const sampled = new WeakMap();
  function pointsOf(path) {
    if (!sampled.has(path)) {
      const length = path.getTotalLength();
      const points = [];
      for (let s = 0; s <= length; s += 2) points.push(path.getPointAtLength(s));
      sampled.set(path, points);
    }
    return sampled.get(path);
  }

  function nearestTarget(svg, x, y) {
    const m = svg.getScreenCTM();
    const scale = Math.hypot(m.a, m.b) || 1;
    const at = new DOMPoint(x, y).matrixTransform(m.inverse());
    let best = null;
    let bestDistance = REACH / scale;
    svg.querySelectorAll("[data-line].target").forEach(function (line) {
      pointsOf(line.querySelector("path.stroke")).forEach(function (p) {
        const d = Math.hypot(p.x - at.x, p.y - at.y);
        if (d <= bestDistance) {
          bestDistance = d;
          best = line;
        }
      });
    });
    return best;
  }

  // The line a tap at viewport point (x, y) plays, or null; the tests measure targets with it.
  function tapTarget(x, y) {
    const hit = document.elementFromPoint(x, y);
    if (!hit) return null;
    const svg = hit.closest("#board svg:not(.hex)");
    if (!svg || !fingers.matches || !svg.querySelector("[data-line].target")) return hit.closest("[data-line]");
    if (hit.closest("[data-island]")) return null; // an island drawn over the lines keeps its taps
    return nearestTarget(svg, x, y);
  }
  window.archipelagoTapTarget = tapTarget;

  document.addEventListener(
    "click",
    function (event) {
      if (!event.isTrusted || !(event.target instanceof Element)) return;
      if (!event.target.closest("#board svg:not(.hex)")) return;
      const line = tapTarget(event.clientX, event.clientY);
      if (!line || line === event.target.closest("[data-line]")) return;
      event.stopPropagation();
      event.preventDefault();
      line.dispatchEvent(new MouseEvent("click", { bubbles: true, clientX: event.clientX, clientY: event.clientY }));
    },
    true
  );

  // The play page and the replay swap in a newly drawn board after every event or step.
  new MutationObserver(fit).observe(document.body, { childList: true, subtree: true });
  narrow.addEventListener("change", fit);
  fit();
})();
