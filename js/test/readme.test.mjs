// The usage example of js/README.md runs, against this checkout's package.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

test("the README's example runs and prints what its comments say", async () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.equal(blocks.length, 1);
  const index = new URL("../src/index.js", import.meta.url).href;
  const code = blocks[0].replace('from "reversis"', `from ${JSON.stringify(index)}`);
  assert.notEqual(code, blocks[0]);
  const printed = [];
  const log = console.log;
  const folder = mkdtempSync(join(tmpdir(), "reversis-readme-"));
  try {
    const file = join(folder, "example.mjs");
    writeFileSync(file, code);
    console.log = (...args) => printed.push(args);
    await import(file);
  } finally {
    console.log = log;
    rmSync(folder, { recursive: true, force: true });
  }
  assert.deepStrictEqual(printed[0], ["pass", "left"]);
  assert.deepStrictEqual(printed[2], ["wrong-phase"]);
  assert.equal(printed.length, 4);
  const [winners, scores] = printed[3];
  // MATCH-3: the winners are the seats with the lowest total, and the match ended at the target.
  assert.deepStrictEqual(winners, scores.flatMap((s, seat) => (s === Math.min(...scores) ? [seat] : [])));
  assert.ok(Math.max(...scores) >= 100);
});
