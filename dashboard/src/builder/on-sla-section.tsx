import { useId } from 'preact/hooks';
import { childPointer, ProblemText, useFieldProblem } from './problems.tsx';
import { isObject, withKey } from './schema-form.tsx';
import { StepList } from './steps.tsx';

/** The kinds of `on_sla` (sla.md section 3): its key, the heading of its steps, and the name its controls carry. */
const KINDS = [
  ['warning', 'When an SLA warning fires', 'SLA warning'],
  ['breached', 'When an SLA is breached', 'SLA breach'],
] as const;

/**
 * `"on_sla": {"warning": [steps], "breached": [steps]}`: steps edited as a status's are, run as
 * a run of the case when one of its clocks warns or breaches. A kind without steps has no key,
 * and no kind none at all, so that a workflow that never uses it saves as it did.
 */
export function OnSlaSection({ onSla, set }: { onSla: unknown; set: (key: string, value: unknown) => void }) {
  const id = useId();
  const object = isObject(onSla) ? onSla : {};
  const change = (kind: string, steps: unknown[]) => {
    const next = withKey(object, kind, steps.length ? steps : undefined);
    set('on_sla', Object.keys(next).length ? next : undefined);
  };
  return (
    <section class="card stack" aria-labelledby={`${id}-title`} data-pointer="/on_sla">
      <h2 id={`${id}-title`} class="card__title">
        Service levels
      </h2>
      <p class="hint">These steps run as a run of the case when one of its SLA clocks warns (its policy’s warn_before ahead of the due time) or breaches. The workflow’s SLA policy sets the targets.</p>
      <ProblemText id={id} error={useFieldProblem('/on_sla', id).error} />
      {KINDS.map(([kind, title, name]) => (
        <section key={kind} class="automation" aria-labelledby={`${id}-${kind}`}>
          <h3 id={`${id}-${kind}`} class="automation__title">
            {title}
          </h3>
          <StepList steps={object[kind]} onChange={(steps) => change(kind, steps)} pointer={childPointer('/on_sla', kind)} name={name} />
        </section>
      ))}
    </section>
  );
}
