// The CPU time of the search player's decisions in Node, for builds of the module side by side:
//
//   node benches/search_cpu.mjs PACKAGE...
//
// where each PACKAGE is a folder holding a copy of the package, `src/` (js/src) beside `wasm/`
// (one build of js/wasm). The positions are seat 0's plays of the first hand of three seeded
// `hearts-computer` matches, the rule-based player at every seat; each decision is
// `createPlayer("search", {seed: 7})` at its default budget (4,000 playouts). Five rounds, the
// builds in turn within each; the median of a build's rounds is printed, in CPU milliseconds
// (user and system) per decision, which other work on the machine changes far less than the
// wall clock.
const folders = process.argv.slice(2);
if (folders.length === 0) {
  console.error("usage: node benches/search_cpu.mjs PACKAGE...  (each PACKAGE holds src/ and wasm/)");
  process.exit(2);
}
const packages = [];
for (const folder of folders) packages.push(await import(new URL(`${folder}/src/index.js`, `file://${process.cwd()}/`).href));

function positions(reversis) {
  const ruleset = reversis.preset("hearts-computer");
  const rules = reversis.createPlayer("rules", { seed: 1 });
  const observations = [];
  for (const seed of [1, 2, 3]) {
    const game = new reversis.Game(ruleset, { seed: BigInt(seed) });
    while (game.phase !== "over" && game.handNumber < 1) {
      const seat = game.phase === "pass" ? game.awaitingPass[0] : game.toMove;
      if (seat === 0 && game.phase === "play" && game.observation(0).legal.length > 1) observations.push(game.observation(0));
      reversis.actFor(game, [rules, rules, rules, rules]);
    }
    game.free();
  }
  return [ruleset, observations];
}

const rounds = folders.map(() => []);
for (let round = 0; round < 5; round++) {
  packages.forEach((reversis, k) => {
    const [ruleset, observations] = positions(reversis);
    const player = reversis.createPlayer("search", { seed: 7 });
    const start = process.cpuUsage();
    for (const observation of observations) player.act(observation, ruleset);
    const used = process.cpuUsage(start);
    rounds[k].push((used.user + used.system) / 1000 / observations.length);
  });
}
folders.forEach((folder, k) => {
  const sorted = [...rounds[k]].sort((a, b) => a - b);
  console.log(`${folder}: ${sorted[2].toFixed(2)} CPU ms a decision (rounds: ${sorted.map((t) => t.toFixed(1)).join(", ")})`);
});
