import { ValidateBy, type ValidationOptions } from 'class-validator';

const MALFORMED = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\u0000/;

/** Whether Postgres can store the text as it is: no unpaired UTF-16 surrogate, no NUL (and validators that encode it, such as isEmail, do not throw). */
export const isWellFormedText = (text: string): boolean => !MALFORMED.test(text);

/**
 * Text that Postgres can store as it was sent: no unpaired UTF-16 surrogate (it would be
 * replaced by U+FFFD on the way) and no NUL character (Postgres refuses it).
 */
export function IsWellFormedText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isWellFormedText',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || isWellFormedText(value),
        defaultMessage: () => '$property must be well-formed text (no unpaired surrogate, no NUL character)',
      },
    },
    options,
  );
}
