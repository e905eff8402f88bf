// The computer players decide here, off the page's thread, so that a slow decision (the Monte
// Carlo and search players think for a while) never freezes the table. A request carries the
// public ruleset, one seat's observation and the player's name and options: never the game, so
// a player cannot see a card its seat does not hold (document 001, OBS-1).
let engine;
try {
  engine = await import("./engine.js");
  self.postMessage({ type: "ready" });
} catch (error) {
  self.postMessage({ type: "failed", message: String(error && error.message ? error.message : error) });
}

self.addEventListener("message", async (event) => {
  const { id, ruleset, observation, player } = event.data;
  try {
    const action = await engine.decide(player, ruleset, observation);
    self.postMessage({ type: "action", id, action });
  } catch (error) {
    self.postMessage({ type: "error", id, message: String(error && error.message ? error.message : error) });
  }
});
