// The Node driver (js/driver.mjs) over the protocol of spec/driver.md.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const driver = new URL("../driver.mjs", import.meta.url);

/** Runs the driver on `input`; its exit status, answer lines and standard error. */
function run(input, { closeOutput = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [driver.pathname], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    if (closeOutput) child.stdout.destroy();
    else child.stdout.on("data", (data) => { out += data; });
    child.stderr.on("data", (data) => { err += data; });
    child.stdin.on("error", () => {});
    child.on("close", (status, signal) => resolve({ status, signal, lines: out.split("\n").filter(Boolean), err }));
    child.stdin.end(input);
  });
}

const request = (object) => `${JSON.stringify(object)}\n`;

test("hello claims every player count, preset and kind of conformance/README.md", async () => {
  const { status, lines } = await run(request({ id: 1, cmd: "hello" }));
  assert.equal(status, 0);
  const hello = JSON.parse(lines[0]);
  assert.equal(hello.id, 1);
  assert.equal(hello.protocol, 1);
  const readme = readFileSync(new URL("../../conformance/README.md", import.meta.url), "utf8");
  const kinds = [...readme.matchAll(/^\| `([a-z-]+)` \| `/gm)].map((m) => m[1]);
  assert.deepStrictEqual(hello.capabilities.kinds, kinds);
  assert.deepStrictEqual(hello.capabilities.players, [3, 4, 5, 6, 7, 8, 9, 10]);
  for (const claim of ["custom_rulesets", "observations", "error_codes", "action_ids", "observation_tensor"]) assert.equal(hello.capabilities[claim], true);
});

test("seeds stay exact to 2^64 - 1 and beyond it reach the core to be rejected (ERR-6)", async () => {
  const input = [
    '{"id": 1, "cmd": "new_game", "ruleset": "hearts-4", "seed": 18446744073709551615}\n',
    '{"id": 2, "cmd": "record", "game": 1}\n',
    '{"id": 3, "cmd": "new_game", "ruleset": "hearts-4", "seed": 18446744073709551616}\n',
    '{"id": 4, "cmd": "apply", "game": 1, "action": {"type": "pass", "seat": 0.0, "cards": ["2C", "3C", "4C"]}}\n',
  ].join("");
  const { lines } = await run(input);
  assert.match(lines[1], /"seed":18446744073709551615[,}]/);
  assert.deepStrictEqual([JSON.parse(lines[2]).error, JSON.parse(lines[3]).error], ["invalid-setup", "invalid-action"]);
});

test("requests it cannot read are invalid-request, echoing the id it can read (DRV-1)", async () => {
  const input = [
    "not json\n",
    request({ id: 7, cmd: "castle" }),
    request({ id: 8, cmd: "view", game: 99 }),
    request({ id: 9, cmd: "parse_card" }),
    request({ id: 10, cmd: "parse_card", text: "QS", extra: 1 }),
    request({ cmd: "parse_card", text: "10h" }),
    "[1]\n",
  ].join("");
  const answers = (await run(input)).lines.map((line) => JSON.parse(line));
  assert.deepStrictEqual(answers.map((a) => a.id), [null, 7, 8, 9, 10, null, null]);
  assert.deepStrictEqual(answers.map((a) => a.error ?? a.card), [
    "invalid-request", "invalid-request", "invalid-request", "invalid-request", "invalid-request", "TH", "invalid-request",
  ]);
});

test("quit answers and exits, whatever follows", async () => {
  const { status, lines } = await run(request({ id: 1, cmd: "quit" }) + request({ id: 2, cmd: "hello" }));
  assert.equal(status, 0);
  assert.deepStrictEqual(lines.map((line) => JSON.parse(line)), [{ id: 1, ok: true }]);
});

test("a closed output pipe ends the driver quietly", async () => {
  const { status, signal, err } = await run(request({ id: 1, cmd: "hello" }).repeat(2000), { closeOutput: true });
  assert.equal(signal, null);
  assert.equal(status, 0);
  assert.equal(err, "");
});
