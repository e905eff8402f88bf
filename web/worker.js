// The computer players decide here, off the page's thread, so that a slow decision (the Monte
// Carlo and search players think for a while) never freezes the table. A request carries the
// public ruleset, one seat's observation and the player's name and options: never the game, so
// a player cannot see a card its seat does not hold (document 001, OBS-1).
let reversis;
try {
  // Imported here rather than at the top so that a module that cannot load is reported to the
  // page with its reason (a worker's error event carries none).
  reversis = await import("./js/src/index.js");
  self.postMessage({ type: "ready" });
} catch (error) {
  self.postMessage({ type: "failed", message: String(error && error.message ? error.message : error) });
}

const OPTIONS = { random: [], rules: [], montecarlo: ["rollouts"], search: ["objective"], learned: [] };

// The learned player's network (2.0 MB) is no part of the page: it is fetched once, when that
// player is first asked for, and read once; a failed fetch is tried again on the next request.
let learned = null;
function learnedPlayer() {
  learned ??= fetch(new URL("./js/learned-hearts-computer.rvnn", import.meta.url))
    .then(async (response) => {
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      return reversis.createPlayer("learned", { weights: new Uint8Array(await response.arrayBuffer()) });
    })
    .catch((error) => {
      learned = null;
      throw new Error(`the learned player's network could not be loaded: ${error && error.message ? error.message : error}`);
    });
  return learned;
}

self.addEventListener("message", async (event) => {
  // A review (review.js) asks for an evaluation of seat 0's decision from its observation alone.
  if (event.data.type === "evaluate") return evaluate(event.data);
  const { id, ruleset, observation, player } = event.data;
  try {
    const options = { seed: player.seed };
    for (const name of OPTIONS[player.name]) options[name] = player[name];
    const chosen = player.name === "learned" ? await learnedPlayer() : reversis.createPlayer(player.name, options);
    const action = chosen.act(observation, reversis.Ruleset.fromJson(ruleset));
    self.postMessage({ type: "action", id, action });
  } catch (error) {
    self.postMessage({ type: "error", id, message: String(error && error.message ? error.message : error) });
  }
});

function evaluate({ id, ruleset, observation, seed, playouts, action }) {
  try {
    const evaluation = reversis.evaluateDecision(reversis.Ruleset.fromJson(ruleset), observation, { seed, playouts, action });
    self.postMessage({ type: "evaluation", id, evaluation });
  } catch (error) {
    self.postMessage({ type: "error", id, message: String(error && error.message ? error.message : error) });
  }
}
