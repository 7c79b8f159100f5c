import type { ComponentChildren } from 'preact';
import { errorMessage } from './api.ts';
import { ConfirmDialog } from './components.tsx';
import { useAction } from './hooks.ts';

/** The form of a new item, or of one being changed, in a card with its own Cancel (subscriptions, digests). */
export function NewItemCard({ id, title, onCancel, children }: { id: string; title: string; onCancel: () => void; children: ComponentChildren }) {
  return (
    <section class="card" aria-labelledby={id}>
      <h2 id={id} class="card__title">
        {title}
      </h2>
      {children}
      <div>
        <button type="button" class="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}

/** Deleting `target` once confirmed: open while there is a target; a refusal is shown in the dialog. */
export function DeleteDialog<T>(props: { target: T | null; title: string; confirmLabel: string; remove: (target: T) => Promise<void>; onClose: () => void; children: ComponentChildren }) {
  const remove = useAction(async (target: T) => {
    await props.remove(target);
    props.onClose();
  });
  return (
    <ConfirmDialog
      open={props.target !== null}
      title={props.title}
      confirmLabel={props.confirmLabel}
      danger
      pending={remove.pending}
      error={remove.error !== null ? errorMessage(remove.error) : null}
      onConfirm={() => props.target !== null && void remove.run(props.target)}
      onCancel={() => {
        props.onClose();
        remove.clearError();
      }}
    >
      {props.children}
    </ConfirmDialog>
  );
}
