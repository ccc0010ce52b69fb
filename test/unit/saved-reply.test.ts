import {
  fillPlaceholders,
  firstName,
  placeholderProblems,
  placeholderValues,
} from '../../functions/saved-replies/saved-reply';

describe('saved reply placeholders', () => {
  it('accepts known placeholders, spaced or not, with or without a fallback', () => {
    expect(placeholderProblems('Hi {{customer.first_name}}, {{ agent.name | the team }} here.')).toEqual([]);
    expect(placeholderProblems('No placeholders at all { } |')).toEqual([]);
  });

  it('names unknown placeholders and braces that make none', () => {
    expect(placeholderProblems('Hi {{first_name}}')).toEqual([
      expect.stringContaining('unknown placeholder {{first_name}}: use one of customer.name,'),
    ]);
    expect(placeholderProblems('Hi {{customer.name')).toEqual([
      expect.stringContaining('braces that are not a placeholder'),
    ]);
    expect(placeholderProblems('Hi {{customer.name | a | b}}')).toHaveLength(1);
    expect(placeholderProblems('{{}}')).toEqual([expect.stringContaining('unknown placeholder {{}}')]);
    // Each unknown name once; at most five problems.
    expect(placeholderProblems('{{x}} {{x}} {{y}}')).toHaveLength(2);
    expect(placeholderProblems('{{a}}{{b}}{{c}}{{d}}{{e}}{{f}}{{g}} }}')).toHaveLength(5);
  });

  it('fills values, then fallbacks, and names what had neither', () => {
    const values = placeholderValues({ name: null, phone: '+4915112345678' }, 'Ana Maria Silva');
    expect(
      fillPlaceholders(
        '{{customer.first_name | there}} {{customer.name}} {{customer.phone}} {{agent.first_name}}',
        values,
      ),
    ).toEqual({ text: 'there  +4915112345678 Ana', missing: ['customer.name'] });
    expect(fillPlaceholders('{{ agent.name|x }}', placeholderValues(undefined, null))).toEqual({
      text: 'x',
      missing: [],
    });
    // A fallback of spaces is no fallback.
    expect(fillPlaceholders('[{{agent.name |  }}]', {})).toEqual({ text: '[]', missing: ['agent.name'] });
    // Trimmed: nothing left over where a missing value ended the text.
    expect(fillPlaceholders(' Thanks, {{agent.first_name}}\n', {})).toEqual({
      text: 'Thanks,',
      missing: ['agent.first_name'],
    });
  });

  it('takes the first word of a name', () => {
    expect(firstName('  Maria   Lopez ')).toBe('Maria');
    expect(firstName('   ')).toBeNull();
    expect(firstName(null)).toBeNull();
  });
});
