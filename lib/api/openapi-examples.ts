/**
 * Examples for the OpenAPI document, made from the JSON Schemas the zod contracts generate: the first
 * enum value, a plausible string for a named field or format, the minimum of a number, one item per
 * array. The document keeps an example only when the contract's zod schema accepts it
 * (openapi.ts), so a published example is always a valid request or response.
 */

type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: Schema | boolean;
};

const STRING_BY_NAME: [RegExp, string][] = [
  [/colou?r/i, "#3b82f6"],
  [/^ips?$|Ip$/, "192.0.2.10"],
  [/email|address$/i, "ada@example.com"],
  [/url$|uri$|href/i, "https://example.com/hooks/outreach"],
  [/At$|^date$|Until$/, "2026-01-15T09:30:00.000Z"],
  [/timezone/i, "Europe/Berlin"],
  [/domain/i, "example.com"],
  [/^id$|Id$/, "cmp_k2n8x4q7v9b3m5p1c6z0"],
  [/name$/i, "Ada Lovelace"],
  [/subject/i, "Quick question about {{companyName}}"],
  [/body|text|template/i, "Hi {{firstName}}, …"],
];

const STRING_BY_FORMAT: Record<string, string> = {
  email: "ada@example.com",
  uri: "https://example.com/hooks/outreach",
  "date-time": "2026-01-15T09:30:00.000Z",
  date: "2026-01-15",
  binary: "",
};

function stringExample(s: Schema, name: string): string {
  if (typeof s.format === "string" && s.format in STRING_BY_FORMAT) return STRING_BY_FORMAT[s.format];
  const hit = STRING_BY_NAME.find(([re]) => re.test(name));
  let out = hit ? hit[1] : "example";
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : Number.POSITIVE_INFINITY;
  if (out.length < min) out = out.padEnd(min, "x");
  return out.slice(0, max);
}

function numberExample(s: Schema): number {
  if (typeof s.minimum === "number") return s.minimum;
  if (typeof s.exclusiveMinimum === "number") return s.exclusiveMinimum + 1;
  if (typeof s.maximum === "number" && s.maximum < 1) return s.maximum;
  return 1;
}

function objectExample(s: Schema, depth: number, requiredOnly: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = Array.isArray(s.required) ? s.required : [];
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    if (requiredOnly && !required.includes(k)) continue;
    const value = exampleOf(v, k, depth + 1, requiredOnly);
    if (value !== undefined) out[k] = value;
  }
  return out;
}

/** An example value for a JSON Schema (with `requiredOnly`, objects without their optional fields), or undefined. */
export function exampleOf(s: Schema | undefined, name = "", depth = 0, requiredOnly = false): unknown {
  if (!s || depth > 12) return undefined;
  if ("example" in s) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if ("const" in s) return s.const;
  if ("default" in s) return s.default;
  if (Array.isArray(s.enum)) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return exampleOf(alt.find((x) => x.type !== "null") ?? alt[0], name, depth, requiredOnly);
  if (s.allOf) return Object.assign({}, ...s.allOf.map((x) => exampleOf(x, name, depth, requiredOnly)));
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "string":
      return stringExample(s, name);
    case "integer":
    case "number":
      return numberExample(s);
    case "boolean":
      return true;
    case "null":
      return null;
    case "array": {
      const item = exampleOf(s.items, name, depth + 1, requiredOnly);
      const min = typeof s.minItems === "number" ? s.minItems : 1;
      return item === undefined ? [] : Array.from({ length: Math.max(1, min) }, () => item);
    }
    case "object":
      return objectExample(s, depth, requiredOnly);
    default:
      return s.properties ? objectExample(s, depth, requiredOnly) : undefined;
  }
}
