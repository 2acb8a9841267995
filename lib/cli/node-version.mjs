// Plain JavaScript that any old Node.js can parse: bin/outreach.mjs runs it before loading anything else.

/** The oldest Node.js major version Outreach runs on. */
export const MIN_NODE_MAJOR = 20;

/**
 * Why this Node.js cannot run Outreach, in one line, or null when it can.
 * @param {string} version process.versions.node, e.g. "18.19.1"
 * @returns {string | null}
 */
export function nodeVersionProblem(version) {
  const major = Number(String(version).split(".")[0]);
  if (major >= MIN_NODE_MAJOR) return null;
  return (
    "Outreach needs Node.js " +
    MIN_NODE_MAJOR +
    " or newer, this is " +
    version +
    " — install Node.js " +
    MIN_NODE_MAJOR +
    " LTS or newer (nodejs.org, or nvm install " +
    MIN_NODE_MAJOR +
    ")"
  );
}
