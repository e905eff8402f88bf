// A small MessagePack reader (the subset REC-3 uses: nil, booleans, integers, floats, strings,
// arrays, maps), so that the tests check the package's encoder against a decoder of their own.
// Integers beyond 2^53 come back as BigInts, as the package gives them.

export function decodeMsgpack(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const int = (value) => (typeof value === "bigint" && value >= -(2n ** 53n) + 1n && value <= 2n ** 53n - 1n ? Number(value) : value);
  const text = (length) => {
    const value = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(at, at + length));
    at += length;
    return value;
  };
  const many = (count, fn) => Array.from({ length: count }, fn);
  const map = (count) => {
    const object = {};
    for (let i = 0; i < count; i++) {
      const key = read();
      object[key] = read();
    }
    return object;
  };
  function read() {
    const byte = bytes[at++];
    if (byte <= 0x7f) return byte;
    if (byte >= 0xe0) return byte - 0x100;
    if ((byte & 0xf0) === 0x80) return map(byte & 0x0f);
    if ((byte & 0xf0) === 0x90) return many(byte & 0x0f, read);
    if ((byte & 0xe0) === 0xa0) return text(byte & 0x1f);
    const next = (size, get) => {
      const value = get(at);
      at += size;
      return value;
    };
    switch (byte) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xca: return next(4, (i) => view.getFloat32(i));
      case 0xcb: return next(8, (i) => view.getFloat64(i));
      case 0xcc: return next(1, (i) => view.getUint8(i));
      case 0xcd: return next(2, (i) => view.getUint16(i));
      case 0xce: return next(4, (i) => view.getUint32(i));
      case 0xcf: return int(next(8, (i) => view.getBigUint64(i)));
      case 0xd0: return next(1, (i) => view.getInt8(i));
      case 0xd1: return next(2, (i) => view.getInt16(i));
      case 0xd2: return next(4, (i) => view.getInt32(i));
      case 0xd3: return int(next(8, (i) => view.getBigInt64(i)));
      case 0xd9: return text(next(1, (i) => view.getUint8(i)));
      case 0xda: return text(next(2, (i) => view.getUint16(i)));
      case 0xdb: return text(next(4, (i) => view.getUint32(i)));
      case 0xdc: return many(next(2, (i) => view.getUint16(i)), read);
      case 0xdd: return many(next(4, (i) => view.getUint32(i)), read);
      case 0xde: return map(next(2, (i) => view.getUint16(i)));
      case 0xdf: return map(next(4, (i) => view.getUint32(i)));
      default: throw new Error(`MessagePack byte 0x${byte.toString(16)} is not used by records`);
    }
  }
  const value = read();
  if (at !== bytes.length) throw new Error(`${bytes.length - at} bytes after the value`);
  return value;
}

// The decoder above is checked against byte strings written out from the MessagePack
// specification (github.com/msgpack/msgpack/blob/master/spec.md), not against the package.
import assert from "node:assert/strict";
import { test } from "node:test";

test("the test's MessagePack reader decodes the specification's formats", () => {
  const decode = (...bytes) => decodeMsgpack(new Uint8Array(bytes));
  assert.deepStrictEqual(decode(0x93, 0x01, 0x02, 0x03), [1, 2, 3]);
  assert.deepStrictEqual(decode(0x81, 0xa1, 0x61, 0xc0), { a: null });
  assert.equal(decode(0xff), -1);
  assert.equal(decode(0xcd, 0x01, 0x00), 256);
  assert.equal(decode(0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), 2n ** 64n - 1n);
  assert.equal(decode(0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0), -(2n ** 63n));
  assert.throws(() => decode(0x01, 0x02), /bytes after the value/);
});
