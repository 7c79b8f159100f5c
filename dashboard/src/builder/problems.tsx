import { createContext, type ComponentChildren, type RefObject } from 'preact';
import { useContext, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ValidationProblem } from '../api.ts';

/**
 * The service's 422 `validation_errors`, by JSON Pointer, for the builder's fields: every
 * field knows the pointer of the value it edits and shows the error the service reported there.
 */
const ProblemsContext = createContext<ReadonlyMap<string, string>>(new Map());

export const ProblemsProvider = ProblemsContext.Provider;

export function problemMap(problems: readonly ValidationProblem[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const problem of problems) map.set(problem.path, map.has(problem.path) ? `${map.get(problem.path)}; ${problem.error}` : problem.error);
  return map;
}

/** The pointer of `token` under `parent` (RFC 6901 escaping). */
export function childPointer(parent: string, token: string | number): string {
  return `${parent}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

export interface FieldAria {
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

/** The error the service reported at `pointer`, and the attributes that tie it (and a hint) to the field `id`. */
export function useFieldProblem(pointer: string, id: string, hint?: boolean): { error: string | undefined; aria: FieldAria } {
  const error = useContext(ProblemsContext).get(pointer);
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { error, aria: { ...(describedBy ? { 'aria-describedby': describedBy } : {}), ...(error ? { 'aria-invalid': true } : {}) } };
}

export function ProblemText({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p class="field-error" id={`${id}-error`}>
      {error}
    </p>
  );
}

/**
 * One labelled field of the builder: the element carrying `data-pointer` is how the builder
 * knows which pointers it shows (the others are listed above the form).
 */
export function PointerField({ id, pointer, label, hint, children }: { id: string; pointer: string; label: ComponentChildren; hint?: string; children: (aria: FieldAria) => ComponentChildren }) {
  const { error, aria } = useFieldProblem(pointer, id, Boolean(hint));
  return (
    <div class="field" data-pointer={pointer}>
      <label for={id}>{label}</label>
      {children(aria)}
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <ProblemText id={id} error={error} />
    </div>
  );
}

/**
 * The problems no field of the rendered form shows (found after each render by the
 * `data-pointer` marks in `form`); after a refused save, the keyboard goes to the first field
 * to correct, or to this list.
 */
export function useUnplacedProblems(form: RefObject<HTMLElement>, problems: readonly ValidationProblem[]): ValidationProblem[] {
  const [unplaced, setUnplaced] = useState<ValidationProblem[]>([]);
  useLayoutEffect(() => {
    const shown = new Set(Array.from(form.current?.querySelectorAll<HTMLElement>('[data-pointer]') ?? [], (element) => element.dataset.pointer!));
    const next = problems.filter((problem) => !shown.has(problem.path));
    if (next.length !== unplaced.length || next.some((problem, i) => problem !== unplaced[i])) setUnplaced(next);
  });
  const focusPending = useRef(false);
  useLayoutEffect(() => {
    focusPending.current = problems.length > 0;
  }, [problems]);
  // The list of unplaced problems appears one render later than the fields' errors.
  useLayoutEffect(() => {
    if (!focusPending.current) return;
    const first = form.current?.querySelector<HTMLElement>('[aria-invalid="true"], .builder__unplaced');
    if (!first) return;
    first.focus();
    focusPending.current = false;
  });
  return unplaced;
}
