/** The expression parts of an UpdateItem (or a transaction's Update), ready to spread into its input. */
export interface BuiltUpdate {
  UpdateExpression: string;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/**
 * Builds one update expression and its condition with generated placeholders. Every attribute goes
 * through a name placeholder (no reserved-word surprises), and only the placeholders the expressions use
 * are declared: DynamoDB rejects unused ones. Equal strings and numbers share one value placeholder.
 */
type Clause = 'SET' | 'REMOVE' | 'ADD' | 'DELETE';

export class UpdateBuilder {
  private readonly names: Record<string, string> = {};
  private readonly values: Record<string, unknown> = {};
  private readonly clauses: Record<Clause, string[]> = { SET: [], REMOVE: [], ADD: [], DELETE: [] };
  private readonly conditions: string[] = [];
  private n = 0;

  /** The placeholder of an attribute name (one per attribute). */
  name(attribute: string): string {
    const key = Object.keys(this.names).find((k) => this.names[k] === attribute) ?? `#n${this.n++}`;
    this.names[key] = attribute;
    return key;
  }

  /** The placeholder of a value. */
  value(v: unknown): string {
    const shared = typeof v === 'string' || typeof v === 'number';
    let key = shared ? Object.keys(this.values).find((k) => this.values[k] === v) : undefined;
    if (!key) {
      key = `:v${this.n++}`;
      this.values[key] = v;
    }
    return key;
  }

  private action(clause: Clause, action: string): this {
    this.clauses[clause].push(action);
    return this;
  }

  /** SET attribute = value (a null value is stored as null). */
  set(attribute: string, value: unknown): this {
    return this.action('SET', `${this.name(attribute)} = ${this.value(value)}`);
  }

  /** SET a nested attribute, `a.b = value` (the map `a` must exist). */
  setPath(path: readonly string[], value: unknown): this {
    return this.action('SET', `${path.map((p) => this.name(p)).join('.')} = ${this.value(value)}`);
  }

  /** A SET action written with this builder's placeholders, e.g. `#n0 = list_append(#n0, :v1)`. */
  setExpression(action: string): this {
    return this.action('SET', action);
  }

  remove(attribute: string): this {
    return this.action('REMOVE', this.name(attribute));
  }

  /** ADD a number to an attribute, or elements to a set. */
  add(attribute: string, value: unknown): this {
    return this.action('ADD', `${this.name(attribute)} ${this.value(value)}`);
  }

  /** DELETE elements from a set. */
  delete(attribute: string, value: unknown): this {
    return this.action('DELETE', `${this.name(attribute)} ${this.value(value)}`);
  }

  /** SET each field; a null REMOVEs it and undefined leaves it alone (a PATCH's changes). */
  assign(fields: Record<string, unknown>): this {
    for (const [field, value] of Object.entries(fields)) {
      if (value === null) this.remove(field);
      else if (value !== undefined) this.set(field, value);
    }
    return this;
  }

  /** A condition the write needs, written with this builder's placeholders; several are ANDed. */
  when(condition: string): this {
    this.conditions.push(condition);
    return this;
  }

  /** `attribute IN (...)`, as a condition. */
  whenIn(attribute: string, allowed: readonly unknown[]): this {
    return this.when(`${this.name(attribute)} IN (${allowed.map((v) => this.value(v)).join(', ')})`);
  }

  /** `attribute = value`, as a condition. */
  whenEquals(attribute: string, value: unknown): this {
    return this.when(`${this.name(attribute)} = ${this.value(value)}`);
  }

  build(): BuiltUpdate {
    const update = Object.entries(this.clauses)
      .filter(([, actions]) => actions.length > 0)
      .map(([clause, actions]) => `${clause} ${actions.join(', ')}`)
      .join(' ');
    if (!update) throw new Error('an update needs at least one action');
    const declared = (placeholders: Record<string, unknown>) =>
      Object.keys(placeholders).length > 0 ? { ...placeholders } : undefined;
    return {
      UpdateExpression: update,
      ConditionExpression: this.conditions.length > 0 ? this.conditions.join(' AND ') : undefined,
      ExpressionAttributeNames: declared(this.names) as Record<string, string> | undefined,
      ExpressionAttributeValues: declared(this.values),
    };
  }
}
