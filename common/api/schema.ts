/**
 * The JSON shapes of the HTTP contracts (common/api/): a small subset of JSON Schema that the
 * server hands to Fastify as its route schemas (Ajv checks bodies and queries, the serializer
 * writes answers) and the UI checks answers with (checkAnswer), so neither side reads JSON by hand
 * and both read the one description. The TypeScript type of a schema is Infer<typeof SCHEMA>.
 *
 * Keywords: type (one or a list), properties, required, additionalProperties (boolean or a
 * schema), items, enum, minimum, maximum, minLength, maxLength, pattern, minItems, maxItems, anyOf.
 * Keywords outside this list are ignored here (Fastify still applies them on the server).
 */

type TypeName = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';

export interface JsonSchema {
  readonly type?: TypeName | readonly TypeName[];
  readonly properties?: { readonly [key: string]: JsonSchema };
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly enum?: readonly (string | number | boolean | null)[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly anyOf?: readonly JsonSchema[];
  readonly default?: unknown;
  readonly description?: string;
}

// ---- the type a schema describes ---------------------------------------------------------------

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type RequiredKeys<S> = S extends { required: readonly (infer K)[] } ? K & string : never;

type InferObject<S> = S extends { properties: infer P }
  ? Simplify<
    { -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: Infer<P[K]> } &
    { -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: Infer<P[K]> } &
    (S extends { additionalProperties: infer A extends JsonSchema } ? { [key: string]: Infer<A> | undefined } : unknown)
  >
  : S extends { additionalProperties: infer A extends JsonSchema } ? Record<string, Infer<A>> : Record<string, unknown>;

type InferType<T, S> =
  T extends 'string' ? string
    : T extends 'number' | 'integer' ? number
      : T extends 'boolean' ? boolean
        : T extends 'null' ? null
          : T extends 'array' ? (S extends { items: infer I } ? Infer<I>[] : unknown[])
            : T extends 'object' ? InferObject<S>
              : never;

/**
 * true when A and B are the same type: a contract module checks its schemas against the interfaces
 * it documents with `const matches: Same<Infer<typeof SCHEMA>, Interface> = true`.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The TypeScript type of the values a schema (declared `as const`) accepts. */
export type Infer<S> =
  S extends { enum: readonly (infer E)[] } ? E
    : S extends { anyOf: readonly (infer A)[] } ? (A extends unknown ? Infer<A> : never)
      : S extends { type: readonly (infer T)[] } ? (T extends unknown ? InferType<T, S> : never)
        : S extends { type: infer T } ? InferType<T, S>
          : unknown;

// ---- checking ----------------------------------------------------------------------------------

function typeOf(value: unknown): TypeName | 'undefined' | 'other' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string': return 'string';
    case 'number': return Number.isFinite(value) ? (Number.isInteger(value) ? 'integer' : 'number') : 'other';
    case 'boolean': return 'boolean';
    case 'object': return 'object';
    case 'undefined': return 'undefined';
    default: return 'other';
  }
}

function typeMatches(expected: TypeName, actual: ReturnType<typeof typeOf>): boolean {
  return expected === actual || (expected === 'number' && actual === 'integer');
}

const describe = (value: unknown): string => {
  const t = typeOf(value);
  if (t === 'string') return `"${String(value).slice(0, 40)}"`;
  if (t === 'integer' || t === 'number' || t === 'boolean' || t === 'null') return String(value);
  return t === 'other' ? String(value) : t;
};

/**
 * What is wrong with a value for a schema (the first problem, with where it is: `answer.ts[3]`),
 * or null when it fits.
 */
export function schemaProblem(schema: JsonSchema, value: unknown, at = 'value'): string | null {
  if (schema.anyOf) {
    const problems = schema.anyOf.map((s) => schemaProblem(s, value, at));
    return problems.includes(null) ? null : problems[0] ?? null;
  }
  const actual = typeOf(value);
  if (schema.type !== undefined) {
    const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
    if (!types.some((t) => typeMatches(t, actual))) return `${at} should be ${types.join(' or ')}, not ${describe(value)}`;
  }
  if (schema.enum && !schema.enum.includes(value as string)) return `${at} should be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}, not ${describe(value)}`;
  if (actual === 'integer' || actual === 'number') {
    const n = value as number;
    if (schema.minimum !== undefined && n < schema.minimum) return `${at} should be >= ${schema.minimum}, not ${n}`;
    if (schema.maximum !== undefined && n > schema.maximum) return `${at} should be <= ${schema.maximum}, not ${n}`;
  } else if (actual === 'string') {
    const s = value as string;
    if (schema.minLength !== undefined && s.length < schema.minLength) return `${at} should have at least ${schema.minLength} characters`;
    if (schema.maxLength !== undefined && s.length > schema.maxLength) return `${at} should have at most ${schema.maxLength} characters`;
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(s)) return `${at} should match ${schema.pattern}, not ${describe(s)}`;
  } else if (actual === 'array') {
    const list = value as unknown[];
    if (schema.minItems !== undefined && list.length < schema.minItems) return `${at} should have at least ${schema.minItems} items`;
    if (schema.maxItems !== undefined && list.length > schema.maxItems) return `${at} should have at most ${schema.maxItems} items`;
    if (schema.items) {
      for (let i = 0; i < list.length; i++) {
        const problem = schemaProblem(schema.items, list[i], `${at}[${i}]`);
        if (problem) return problem;
      }
    }
  } else if (actual === 'object') {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      if (object[key] === undefined) return `${at}.${key} is missing`;
    }
    const properties = schema.properties ?? {};
    for (const [key, item] of Object.entries(object)) {
      if (item === undefined) continue;
      const own = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
      const rule = own ?? schema.additionalProperties;
      if (rule === false) return `${at}.${key} is not expected`;
      if (rule === undefined || rule === true) continue;
      const problem = schemaProblem(rule, item, `${at}.${key}`);
      if (problem) return problem;
    }
  }
  return null;
}

/** An answer that does not have the shape of its contract. */
export class ContractError extends Error {
  override name = 'ContractError';
}

/** The answer, typed by its schema; throws a ContractError naming what is wrong and where it came from. */
export function checkAnswer<const S extends JsonSchema>(schema: S, value: unknown, from: string): Infer<S> {
  const problem = schemaProblem(schema, value, 'answer');
  if (problem) throw new ContractError(`Unexpected answer from ${from}: ${problem}`);
  return value as Infer<S>;
}

/** Whether a value fits a schema (for stored values read back, where a misfit is dropped rather than thrown). */
export function fits<const S extends JsonSchema>(schema: S, value: unknown): value is Infer<S> {
  return schemaProblem(schema, value) === null;
}
