// Keyboard play on the game page. The board is one stop of the Tab order (its lines, islands,
// hexes and cells are reached with the arrow keys, the nearest in the arrow's direction), the
// cards of a row move with the arrows too, and three keys jump: H to the hand, B to the board
// (to the first place the selection can go, when there is one), M to the list of moves.
// Enter or Space then plays what has the focus, as a click would.
(function () {
  "use strict";

  const BOARD = "#board [data-line][tabindex], #board [data-island][tabindex], #board [data-hex][tabindex], #board [data-cell][tabindex]";
  const DIRECTIONS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

  function centre(element) {
    const box = element.getBoundingClientRect();
    return [box.left + box.width / 2, box.top + box.height / 2];
  }

  // The nearest of `others` from `from` in the direction (dx, dy): along the arrow counts
  // once, across it twice, so that the next item in a row beats a nearer one off to the side.
  function nearest(from, others, direction) {
    const [x, y] = centre(from);
    let best = null;
    let bestScore = Infinity;
    others.forEach(function (other) {
      if (other === from) return;
      const [ox, oy] = centre(other);
      const along = (ox - x) * direction[0] + (oy - y) * direction[1];
      if (along <= 0.5) return;
      const across = Math.abs((ox - x) * direction[1] - (oy - y) * direction[0]);
      const score = along + 2 * across;
      if (score < bestScore) {
        bestScore = score;
        best = other;
      }
    });
    return best;
  }

  // One element of the board takes Tab; the others stay reachable by the arrows.
  function rove(box, stop) {
    const items = Array.from(box.querySelectorAll(BOARD));
    if (!items.length) return;
    const chosen = stop && items.includes(stop) ? stop : box.querySelector("#board .target[tabindex]") || items[0];
    items.forEach(function (item) { item.tabIndex = item === chosen ? 0 : -1; });
  }

  function boardStop(box) {
    const target = box.querySelector("#board .target[tabindex]");
    if (target) {
      rove(box, target);
      return target;
    }
    return box.querySelector("#board [tabindex='0']") || box.querySelector(BOARD);
  }

  function visibleMoves(box) {
    return Array.from(box.querySelectorAll("#commands [data-command]")).filter(function (b) {
      return !b.closest("li").hidden;
    });
  }

  const JUMPS = {
    h: function (box) { return box.querySelector("#hand [data-card][aria-pressed='true']") || box.querySelector("#hand [data-card]"); },
    b: boardStop,
    m: function (box) { return visibleMoves(box)[0]; },
  };

  function typing(target) {
    return target.closest("input, textarea, select, [contenteditable]") !== null;
  }

  function install(box) {
    document.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.altKey || event.metaKey || typing(event.target)) return;
      const jump = JUMPS[event.key.toLowerCase()];
      if (jump) {
        const to = jump(box);
        if (to) {
          event.preventDefault();
          to.focus();
        }
        return;
      }
      const direction = DIRECTIONS[event.key];
      if (!direction) return;
      const onBoard = event.target.closest(BOARD);
      if (onBoard) {
        const next = nearest(onBoard, Array.from(box.querySelectorAll(BOARD)), direction);
        if (next) {
          event.preventDefault();
          rove(box, next);
          next.focus();
        }
        return;
      }
      const card = event.target.closest(".cards [data-card]");
      const move = event.target.closest("#commands [data-command]");
      const row = card ? Array.from(card.parentElement.querySelectorAll("[data-card]")) : move ? visibleMoves(box) : null;
      if (!row) return;
      const at = row.indexOf(card || move);
      const step = direction[0] + direction[1];
      const next = row[at + step];
      if (next) {
        event.preventDefault();
        next.focus();
      }
    });
  }

  window.ArchipelagoKeyboard = { install: install, rove: rove };
})();
