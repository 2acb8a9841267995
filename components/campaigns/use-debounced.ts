"use client";

import { useEffect, useState } from "react";

/**
 * `value`, once it has stopped changing for `ms`. Compared by JSON so that a new object with the same
 * content (a re-render) does not restart the wait.
 */
export function useDebounced<T>(value: T, ms: number): T {
  const json = JSON.stringify(value);
  const [settled, setSettled] = useState(json);
  useEffect(() => {
    const t = setTimeout(() => setSettled(json), ms);
    return () => clearTimeout(t);
  }, [json, ms]);
  return JSON.parse(settled) as T;
}
