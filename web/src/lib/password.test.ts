import { describe, expect, it } from 'vitest';
import { changePasswordSchema, PASSWORD_MESSAGES } from './password';

function errorsOf(values: Record<string, string>) {
  const result = changePasswordSchema.safeParse({ master_password: 'Old@1234', confirm_password: values.new_password, ...values });
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

describe('change-password validation (spec §5)', () => {
  it('accepts a good password with old_password left out', () => {
    expect(errorsOf({ new_password: 'Abcd1234' })).toEqual({});
    expect(errorsOf({ new_password: 'a1@$!%*#?&' })).toEqual({});
  });

  it('requires master_password', () => {
    expect(errorsOf({ master_password: '', new_password: 'Abcd1234' })).toEqual({ master_password: PASSWORD_MESSAGES.masterRequired });
  });

  it('requires new_password', () => {
    expect(errorsOf({ new_password: '', confirm_password: 'x' }).new_password).toBe(PASSWORD_MESSAGES.required);
  });

  it('needs at least 8 characters', () => {
    expect(errorsOf({ new_password: 'Abc1234' }).new_password).toBe(PASSWORD_MESSAGES.min);
  });

  it('allows only letters, digits and @$!%*#?&', () => {
    expect(errorsOf({ new_password: 'Abcd 1234' }).new_password).toBe(PASSWORD_MESSAGES.chars);
    expect(errorsOf({ new_password: 'Abcd-1234' }).new_password).toBe(PASSWORD_MESSAGES.chars);
  });

  it('needs at least one letter and one digit', () => {
    expect(errorsOf({ new_password: '12345678' }).new_password).toBe(PASSWORD_MESSAGES.letterAndDigit);
    expect(errorsOf({ new_password: 'abcdefgh' }).new_password).toBe(PASSWORD_MESSAGES.letterAndDigit);
    expect(errorsOf({ new_password: '@@@@1234' }).new_password).toBe(PASSWORD_MESSAGES.letterAndDigit);
  });

  it("puts a 'matching' error on the confirmation field", () => {
    expect(errorsOf({ new_password: 'Abcd1234', confirm_password: 'Abcd12345' })).toEqual({ confirm_password: PASSWORD_MESSAGES.matching });
    expect(PASSWORD_MESSAGES.matching).toMatch(/matching/);
  });

  it('requires the confirmation', () => {
    expect(errorsOf({ new_password: 'Abcd1234', confirm_password: '' })).toEqual({ confirm_password: PASSWORD_MESSAGES.confirmRequired });
  });
});
