import { Button } from "./button";

/**
 * A form dialog's footer: a button that closes it and one that submits the form with id `form` (the
 * form sits in the dialog's body, the buttons outside it), showing `pendingLabel` while it is sent.
 */
export function FormFooter({
  form,
  pending,
  disabled,
  onCancel,
  cancelLabel = "Cancel",
  submitLabel = "Save",
  pendingLabel = "Saving…",
}: {
  form: string;
  pending: boolean;
  /** Submitting is not possible yet (besides while pending). */
  disabled?: boolean;
  onCancel: () => void;
  cancelLabel?: string;
  submitLabel?: string;
  pendingLabel?: string;
}) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button type="submit" form={form} disabled={pending || disabled}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </>
  );
}
