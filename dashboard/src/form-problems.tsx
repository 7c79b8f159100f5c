import { useLayoutEffect } from 'preact/hooks';
import { ApiError, errorMessage } from './api.ts';
import { Alert } from './components.tsx';

/**
 * A form's refused save, split for showing: each 422 `validation_errors` entry under the field its
 * JSON Pointer names (`/recipients/1` belongs to `recipients`), the rest for the whole form.
 */
export interface FormProblems {
  fields: Record<string, string>;
  /** Not placed at a field: another refusal, or a cap. */
  error: ApiError | string | null;
}

export function formProblems(error: unknown, fieldNames: readonly string[]): FormProblems {
  if (error === null) return { fields: {}, error: null };
  if (!(error instanceof ApiError)) return { fields: {}, error: errorMessage(error) };
  const fields: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const problem of error.validationErrors) {
    const name = problem.path.split('/')[1] ?? '';
    if (fieldNames.includes(name)) fields[name] ??= problem.error;
    else unplaced.push(problem.error);
  }
  const placedAll = error.validationErrors.length > 0 && unplaced.length === 0;
  return { fields, error: placedAll ? null : unplaced.length > 0 ? unplaced.join('; ') : error };
}

/** After a refused save (`refusal`), takes the keyboard to the first field to correct (`${prefix}-${name}`). */
export function useFocusFirstProblem(refusal: unknown, problems: FormProblems, prefix: string, fieldNames: readonly string[]): void {
  // In the commit that shows the errors, so whoever sees them finds the keyboard there already.
  useLayoutEffect(() => {
    const first = fieldNames.find((name) => problems.fields[name]);
    if (first) document.getElementById(`${prefix}-${first}`)?.focus();
  }, [refusal]);
}

/** The error under a field; the field names it with aria-describedby (`${id}-error`). */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p class="field-error" id={`${id}-error`} role="alert">
      {error}
    </p>
  );
}

/** A refusal not tied to one field; a reached cap says which setting and how to make room. */
export function FormError({ error, what }: { error: FormProblems['error']; what: string }) {
  if (error === null) return null;
  if (error instanceof ApiError && error.cap) {
    return (
      <Alert tone="error" title={`Limit reached: at most ${error.cap.limit} ${what}`}>
        <p>
          This organization already has as many {what} as the service allows ({error.cap.setting}). Delete one to make room, or ask whoever runs the service to raise {error.cap.setting}.
        </p>
      </Alert>
    );
  }
  return <Alert tone="error">{typeof error === 'string' ? error : error.message}</Alert>;
}
