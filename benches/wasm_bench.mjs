// The JavaScript side of benches/test_bench_wasm.py: the package (js/, the core as WebAssembly)
// timed under Node, one JSON request per line on standard input, one JSON answer per line on
// standard output. The Python benchmark alternates these requests with the same work done
// natively, so a burst of load on the machine falls on both sides alike.
//
//   {"op": "simulate", "preset": "hearts-4", "hands": 20000, "seed": 1}
//       -> {"seconds": …, "checksum": …}  one simulate() call; checksum sums hand i's scores
//          times (i + 1), so the native side can check it played the very same hands
//   {"op": "per_step", "preset": "hearts-4", "hands": 20, "hand_number": 3}
//       -> {"seconds": …, "plays": …}  hands dealt from seeds 0 … hands−1 before the clock
//          starts, then per card one legalActions(), one random choice, one applyAction()

import { createInterface } from "node:readline";

import * as reversis from "../js/src/index.js";

/** mulberry32: a small seeded generator, so that every round plays the same choices. */
function generator(seed) {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function simulate({ preset, hands, seed }) {
  const ruleset = reversis.preset(preset);
  const started = performance.now();
  const scores = reversis.simulate(ruleset, hands, BigInt(seed));
  const seconds = (performance.now() - started) / 1000;
  const players = scores.length / hands;
  let checksum = 0;
  for (let i = 0; i < hands; i++) {
    for (let seat = 0; seat < players; seat++) checksum += scores[i * players + seat] * (i + 1);
  }
  return { seconds, checksum };
}

function perStep({ preset, hands, hand_number: handNumber }) {
  const ruleset = reversis.preset(preset);
  const games = [];
  for (let seed = 0; seed < hands; seed++) {
    const game = new reversis.Game(ruleset, { handNumber });
    game.deal(reversis.dealFromSeed(ruleset, seed, 1, handNumber)[0]);
    games.push(game);
  }
  const random = generator(7);
  let plays = 0;
  const started = performance.now();
  for (const game of games) {
    // The hand ends in phase moon or deal: the games are unseeded, so no next hand is dealt.
    while (game.phase === "play") {
      const ids = game.legalActions();
      game.applyAction(ids[Math.floor(random() * ids.length)]);
      plays += 1;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  for (const game of games) game.free();
  return { seconds, plays };
}

const OPS = { simulate, per_step: perStep };

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  let answer;
  try {
    const request = JSON.parse(line);
    const op = OPS[request.op];
    answer = op ? op(request) : { error: `no op ${JSON.stringify(request.op)}` };
  } catch (error) {
    answer = { error: String(error && error.message ? error.message : error) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
