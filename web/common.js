// What the table (app.js), its review (review.js) and the results page (results.js) must say
// alike: where the table keeps its saves and in what format, and the names of the seats and of
// the computer players.

export const SAVE_KEY = "reversis.save";
export const ASIDE_PREFIX = "reversis.save.unreadable.";
// A finished match is kept under a key of its own when the next one starts, as reversis play
// keeps save.json.finished-*: the result is the person's.
export const FINISHED_PREFIX = "reversis.save.finished.";
export const SAVE_FORMAT = "reversis-web-save";
export const SAVE_VERSION = 1;

/** The object of a save of the table in `text` (its `record` a string), read by `parseJson`
 *  (the package's, which keeps 64-bit seeds exact); throws naming why it is not one. */
export function readSaveData(text, parseJson) {
  let data;
  try {
    data = parseJson(text);
  } catch (error) {
    throw new Error(`it is not JSON (${error.message})`);
  }
  if (!data || typeof data !== "object" || data.format !== SAVE_FORMAT) {
    throw new Error("it is not a saved match of the table");
  }
  if (data.version !== SAVE_VERSION) {
    throw new Error(`it is from another version of the table (version ${data.version})`);
  }
  if (typeof data.record !== "string") throw new Error("it holds no game record");
  return data;
}

// Every computer player the worker knows, by the name it is asked for.
export const PLAYERS = { random: "random", rules: "rule-based", montecarlo: "Monte Carlo", search: "search", learned: "learned" };
// The difficulty levels as people name them, each one player for every computer seat; "each"
// gives every seat a player of its own (the save's `players`).
export const LEVELS = { random: "Beginner", rules: "Easy", learned: "Medium", search: "Hard" };
export const EACH_SEAT = "each";

const NAMES_4 = ["You", "West", "North", "East"];
const NAMES = ["You", "Ada", "Bram", "Cleo", "Dirk", "Eva", "Floor", "Gijs", "Hanna", "Ivo"];

/** The names of the seats of a table of `count` players, seat 0 "You". */
export function seatNames(count) {
  const list = count === 4 ? NAMES_4 : NAMES;
  return Array.from({ length: count }, (_, seat) => list[seat] ?? `Seat ${seat}`);
}

/** A match's computer players in words: the level's, or each seat's (`seatName(seat)` names it);
 *  null where the settings name none. */
export function playersText(settings, seatName) {
  const opponents = settings?.opponents;
  if (opponents !== EACH_SEAT && Object.hasOwn(PLAYERS, opponents)) {
    const level = LEVELS[opponents];
    return level ? `${level} computer players (${PLAYERS[opponents]})` : `${PLAYERS[opponents]} computer players`;
  }
  const list = (settings?.players ?? []).flatMap((name, seat) =>
    seat > 0 && Object.hasOwn(PLAYERS, name) ? [`${seatName(seat)} ${PLAYERS[name]}`] : [],
  );
  return list.length > 0 ? `computer players: ${list.join(", ")}` : null;
}
