// The only module of the table that reaches the rules. The page and the worker both import it,
// so they agree on one small surface whatever the package looks like underneath.
//
// web/build.sh writes engine-source.js: "package" when the JavaScript package (js/src) was
// there to copy, "wasm" when only the WebAssembly module was. Choosing at build time, not by
// trying one import and catching its failure, keeps a broken package from hiding behind the
// fallback.
import { source } from "./engine-source.js";

const api = source === "package" ? await import("./js/src/index.js") : await loadModule();

async function loadModule() {
  const module = await import("./js/wasm/reversis_wasm.js");
  await module.default();
  return module;
}

export const engineSource = source;
export const presetNames = () => Array.from(api.presetNames());
export const preset = (name) => api.preset(name);
export const rulesetFromJson = (data) => api.Ruleset.fromJson(data);
export const parseJson = (text) => api.parseJson(text);
export const stringifyJson = (value) => api.stringifyJson(value);
export const dumpRecord = (record) => api.dumpRecord(record, "json");
export const loadRecord = (bytes) => api.loadRecord(bytes);
export const gameFromRecord = (record) => api.Game.fromRecord(record);

// A game's ruleset and seed are read once per match, from the record where the game object
// does not offer them.
export const rulesetJsonOf = (game) => (game.ruleset ? game.ruleset.toJson() : game.toRecord().ruleset);
export const seedOf = (game) => (game.seed !== undefined ? game.seed : game.toRecord().seed) ?? null;

/** A new match of `ruleset` dealt from `seed` (a BigInt of 64 bits), by default from hand 0 at 0 points. */
export function newGame(ruleset, seed, handNumber = null, scores = null) {
  if (source === "package") {
    const options = { seed };
    if (handNumber !== null) options.handNumber = handNumber;
    if (scores !== null) options.scores = scores;
    return new api.Game(ruleset, options);
  }
  return new api.Game(ruleset, seed, handNumber, scores);
}

/** The error code of a thrown rules error (spec/errors.md), or null for anything else. */
export function errorCode(error) {
  return error && typeof error.code === "string" ? error.code : null;
}

/**
 * The decision of the computer player `player` ({name, seed, rollouts, timeMs}) for the seat
 * whose observation this is: an ACT-1 action. Only the observation and the public ruleset go in.
 */
export async function decide(player, rulesetJson, observation) {
  const ruleset = rulesetFromJson(rulesetJson);
  if (source === "package") {
    const options = { seed: player.seed };
    if (player.name === "montecarlo") options.rollouts = player.rollouts;
    if (player.name === "search") options.timeMs = player.timeMs;
    return await api.createPlayer(player.name, options).act(observation, ruleset);
  }
  return decideWithModule(player, ruleset, rulesetJson, observation);
}

// The module alone has the rule-based, Monte Carlo and search decisions but no random player and
// no player objects; these few lines stand in for the package's createPlayer.
function decideWithModule(player, ruleset, rulesetJson, observation) {
  const seat = observation.seat;
  const asAction = (ids) => api.actionFromIds(Array.from(ids), seat);
  if (player.name === "random") return randomAction(rulesetJson, observation, player.seed);
  if (player.name === "search") {
    return asAction(api.searchPlay(ruleset, observation, player.seed, null, player.timeMs));
  }
  if (player.name === "montecarlo" && observation.phase === "play") {
    return { type: "play", seat, card: api.monteCarloPlay(ruleset, observation, player.rollouts, player.seed) };
  }
  // The Monte Carlo player plays cards only; its passes and moon choices are the rule-based ones.
  return asAction(api.rulesPlay(ruleset, observation, player.seed));
}

/** A uniformly random legal decision, drawn from a generator seeded with `seed`. */
function randomAction(rulesetJson, observation, seed) {
  const next = splitmix64(BigInt(seed));
  const below = (n) => Number(next() % BigInt(n));
  const seat = observation.seat;
  if (observation.phase === "pass") {
    const hand = [...observation.hand];
    const cards = [];
    for (let i = 0; i < rulesetJson.passing.size; i++) cards.push(hand.splice(below(hand.length), 1)[0]);
    return { type: "pass", seat, cards };
  }
  if (observation.phase === "moon") {
    return { type: "moon", seat, choice: below(2) ? "subtract-from-taker" : "add-to-others" };
  }
  return { type: "play", seat, card: observation.legal[below(observation.legal.length)] };
}

function splitmix64(state) {
  const mask = (1n << 64n) - 1n;
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & mask;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    return z ^ (z >> 31n);
  };
}
