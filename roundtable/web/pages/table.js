// The browser's table (docs/browser.md): draws any game's board from its shared shapes (roundtable.games.board),
// the record, a seat's card and question, and the replay's frames. It knows no game: every word comes from the server.
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// The table: seats around the felt, their marks, the tracks and counters in the middle.
function drawTable(root, players, board, viewer, centre) {
  root.replaceChildren();
  const felt = el("div", {class: "felt"});
  for (const [name, cells] of Object.entries(board.tracks || {})) {
    felt.append(el("div", {class: "track-name"}, name));
    felt.append(el("div", {class: "track", "data-track": name},
      cells.map(c => el("span", {class: "cell " + c.state, title: c.note}, c.label, c.note ? el("br") : null, c.note || null))));
  }
  if ((board.counters || []).length)
    felt.append(el("div", {class: "counters"}, board.counters.map(([k, v]) => el("div", {}, `${k}: ${v}`))));
  if (centre) felt.append(centre);
  root.append(felt);
  for (let p = 1; p <= players; p++) {
    const marks = (board.seats || {})[p] || [];
    const angle = Math.PI / 2 + (2 * Math.PI * (p - 1)) / players;
    const classes = ["seat", ...new Set(marks.map(m => m.kind))];
    if (p === viewer) classes.push("me");
    const seat = el("div", {class: classes.join(" "), "data-player": p,
                            style: `left:${50 + 42 * Math.cos(angle)}%;top:${50 + 42 * Math.sin(angle)}%`},
      el("div", {class: "disc"}, String(p)),
      el("div", {class: "name"}, p === viewer ? `Player ${p} (you)` : `Player ${p}`),
      el("div", {class: "marks"}, marks.map(m => el("span", {class: `mark ${m.kind} ${m.label}`.toLowerCase()}, m.label))));
    root.append(seat);
  }
}

function drawRecord(root, lines, current) {
  root.replaceChildren(...lines.map(line => el("p", {class: (line.private ? "private" : "") + (line.index === current ? " current" : ""),
                                                     "data-index": line.index}, line.text)));
  root.scrollTop = root.scrollHeight;
}

function resultLine(state) {
  if (!state.over && state.status !== "finished") return null;
  return el("div", {class: "result"}, state.winner ? `The ${state.winner} side wins` : "A draw",
            state.reason ? ` (${String(state.reason).replaceAll("_", " ")})` : "");
}

// ---------------------------------------------------------------- a seat's question

function drawQuestion(root, q, send) {
  const shown = root.querySelector("form");
  if (q && shown && shown.dataset.request === q.request_id) return;  // keep what the person has typed or ticked
  root.replaceChildren();
  if (!q) { root.hidden = true; return; }
  root.hidden = false;
  root.append(el("h2", {}, "Your turn: " + q.kind.replaceAll("_", " ")));
  if (q.question) root.append(el("p", {}, q.question));
  const form = el("form", {"data-request": q.request_id});
  const error = el("p", {class: "error", role: "alert"}, q.error || "");
  let picked = [];
  const words = q.wants_words ? el("textarea", {name: "utterance", maxlength: q.max_chars,
                                                placeholder: `Your words to the table (at most ${q.max_chars} characters)`}) : null;
  const submit = (choice) => {
    const answer = {};
    if (q.answer === "pick") answer.players = choice === "pass" ? null : picked;
    if (q.answer === "yes_no") answer.choice = choice;
    if (words) answer.utterance = words.value;
    send(q.request_id, answer).then(message => { error.textContent = message || ""; });
  };
  if (q.answer === "pick") {
    const box = el("div", {class: "picks"});
    const go = el("button", {type: "button", class: "primary", disabled: true, onclick: () => submit(null)},
                  `Name ${q.count}`);
    for (const c of q.candidates) {
      const input = el("input", {type: "checkbox", name: "player", value: c});
      input.addEventListener("change", () => {
        picked = [...box.querySelectorAll("input:checked")].map(i => Number(i.value));
        go.disabled = picked.length !== q.count;
        for (const other of box.querySelectorAll("input")) other.disabled = !other.checked && picked.length >= q.count;
      });
      box.append(el("label", {}, input, ` Player ${c}`));
    }
    form.append(box, words, go);
    if (q.may_pass) form.append(el("button", {type: "button", onclick: () => submit("pass")}, "Pass"));
  } else if (q.answer === "yes_no") {
    form.append(words || "", ...q.words.map(w => el("button", {type: "button", class: "primary", "data-choice": w,
                                                             onclick: () => submit(w)}, w)));
  } else {
    form.append(words, el("button", {type: "button", class: "primary", onclick: () => submit(null)}, "Say it"));
  }
  form.addEventListener("submit", e => e.preventDefault());
  root.append(form, error);
}

// ---------------------------------------------------------------- a live page (a seat or a spectator)

function livePage() {
  const token = new URLSearchParams(location.hash.slice(1)).get("t") || "";
  const gameId = decodeURIComponent(location.pathname.split("/").pop());
  const $ = id => document.getElementById(id);
  let shownVersion = -1;
  const send = (requestId, answer) =>
    fetch(`/api/games/${encodeURIComponent(gameId)}/answer`, {method: "POST",
      headers: {"Content-Type": "application/json", "X-Table-Token": token},
      body: JSON.stringify({request_id: requestId, answer})})
      .then(r => r.ok ? "" : r.json().then(b => b.error || `refused (${r.status})`));
  const show = state => {
    if (state.version === shownVersion) return;
    shownVersion = state.version;
    document.title = `${state.title}: ${state.viewer ? "Player " + state.viewer : "spectator"}`;
    $("title").textContent = `${state.title}, ${state.players} players`;
    $("who").textContent = state.viewer ? `You are Player ${state.viewer}` : "Watching (public record only)";
    $("status").textContent = state.note || (state.over ? "Game over" : state.question ? "Waiting for you" : "Playing");
    drawTable($("table"), state.players, state.board, state.viewer, resultLine(state));
    drawRecord($("record"), state.record);
    const card = $("card");
    card.hidden = !state.card;
    if (state.card) card.replaceChildren(el("h2", {}, "Your role"), el("div", {class: "role"}, state.card.role),
      el("div", {}, `Side: ${state.card.side}`), state.card.knowledge ? el("p", {class: "knowledge"}, state.card.knowledge) : "");
    drawQuestion($("question"), state.question, send);
    $("replay").hidden = state.status !== "finished";  // after the belief probe and the record's last write
  };
  const connect = () => {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${encodeURIComponent(gameId)}`);
    ws.onopen = () => { ws.send(JSON.stringify({token})); $("connection").textContent = ""; };
    ws.onmessage = m => show(JSON.parse(m.data));
    ws.onclose = e => {
      if (e.code === 4403) { $("status").textContent = "This link does not open this game."; return; }
      $("connection").textContent = "Connection lost: reconnecting…";
      setTimeout(connect, 1000);
    };
  };
  $("replay").href = `/replay/${encodeURIComponent(gameId)}#t=${encodeURIComponent(token)}`;
  connect();
}

// ---------------------------------------------------------------- the replay

// The replay's data: embedded in a written page, or fetched with the link's token once the game is over.
function replayStart(data) {
  if (data) return replayPage(data);
  const token = new URLSearchParams(location.hash.slice(1)).get("t") || "";
  const gameId = decodeURIComponent(location.pathname.split("/").pop());
  fetch(`/api/games/${encodeURIComponent(gameId)}/replay`, {headers: {"X-Table-Token": token}})
    .then(r => r.json().then(body => {
      if (r.ok) return replayPage(body);
      document.getElementById("step").textContent = body.error;
      if (r.status === 409) setTimeout(() => replayStart(null), 2000);  // the game's last steps are still running
    }));
}

function replayPage(data) {
  const $ = id => document.getElementById(id);
  const frames = data.frames;
  $("title").textContent = `${data.title} ${data.game_id}`;
  const slider = $("slider");
  slider.max = Math.max(frames.length - 1, 0);
  const lines = frames.map(f => ({index: f.index, text: f.text, private: f.private})).filter(l => l.text);
  const show = i => {
    i = Math.max(0, Math.min(frames.length - 1, i));
    slider.value = i;
    const frame = frames[i];
    $("step").textContent = `step ${i + 1} of ${frames.length}`;
    drawTable($("table"), data.players, frame.board, null, i === frames.length - 1 ? resultLine({over: true, ...data}) : null);
    drawRecord($("record"), lines.filter(l => l.index <= frame.index), frame.index);
    $("decisions").replaceChildren(...(frame.decisions.length ? frame.decisions.map(d => el("div", {class: "decision"},
      el("strong", {}, `Player ${d.player} (${d.agent}): ${String(d.kind).replaceAll("_", " ")}`),
      d.thoughts.length ? el("div", {}, el("em", {}, "Thoughts: "), d.thoughts.join(" / ")) : "",
      d.raw ? el("div", {}, el("em", {}, "Reply: "), d.raw) : "",
      d.checks.length ? el("div", {}, el("em", {}, "Checks: "), d.checks.join("; ")) : "",
      d.fallback ? el("div", {class: "error"}, "Fallback: " + d.fallback) : "",
      el("div", {class: "cost"}, `${d.calls} calls, ${d.prompt_tokens} + ${d.completion_tokens} tokens, ${Number(d.seconds).toFixed(1)} s`),
      d.prompts.length ? el("details", {}, el("summary", {}, "Prompts"),
        d.prompts.map(c => el("pre", {}, `[${c.module}]\n` + (c.prompt || []).map(m => `${m.role}: ${m.content}`).join("\n\n") + `\n\n=> ${c.reply}`))) : ""))
      : [el("p", {}, "(no decision at this step)")]),
      ...frame.labels.map(l => el("div", {class: "label"}, el("em", {}, `Judge (${l.model}), ${l.behaviour}: `),
        Object.entries(l.answer).map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`).join(", "))));
  };
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(Number(slider.value) - 1);
  $("next").onclick = () => show(Number(slider.value) + 1);
  $("last").onclick = () => show(frames.length - 1);
  slider.oninput = () => show(Number(slider.value));
  document.addEventListener("keydown", e => {
    if (e.key === "ArrowRight") show(Number(slider.value) + 1);
    if (e.key === "ArrowLeft") show(Number(slider.value) - 1);
  });
  $("seats").replaceChildren(...data.seats.map(s => el("li", {}, `Player ${s.player}: ${s.role || "?"} (${s.kind}${s.model ? ", " + s.model : ""})`)));
  $("beliefs").replaceChildren(data.beliefs.length ? el("table", {class: "beliefs"},
    el("tr", {}, el("th", {}, "player"), el("th", {}, "about"), el("th", {}, "P(good)"), el("th", {}, "truth")),
    data.beliefs.map(b => el("tr", {}, el("td", {}, b.player), el("td", {}, b.about), el("td", {}, b.p_good), el("td", {}, b.side || "?"))))
    : el("p", {}, "No belief probe in this game."));
  $("judge").replaceChildren(...(data.judge.length ? data.judge.map(j => el("p", {}, j)) : [el("p", {}, "Not judged.")]),
    ...data.judged_players.map(l => el("p", {class: "label"}, `Player ${l.player}, ${l.behaviour} (${l.model}): `,
      Object.entries(l.answer).map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`).join(", "))));
  $("cost").textContent = `${data.cost.calls} model calls, ${data.cost.prompt_tokens} prompt and ${data.cost.completion_tokens} generated tokens, ${Number(data.cost.seconds).toFixed(0)} s of model time`;
  show(frames.length - 1);
}
