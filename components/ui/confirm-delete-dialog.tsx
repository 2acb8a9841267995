"use client";

import type { ReactNode } from "react";
import { Alert } from "./alert";
import { Button } from "./button";
import { Dialog } from "./dialog";

/**
 * "Delete …?" with Cancel and Delete. `onClose` is every other way out (✕, Escape); `children` says what
 * deleting does, `error` why it failed.
 */
export function ConfirmDeleteDialog({
  open,
  title,
  pending,
  error,
  onConfirm,
  onCancel,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  pending: boolean;
  error?: string;
  onConfirm: () => void;
  onCancel: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="danger" disabled={pending} onClick={onConfirm}>
            {pending ? "Deleting…" : "Delete"}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-gray-700">
        <p>{children}</p>
        {error && <Alert tone="error">{error}</Alert>}
      </div>
    </Dialog>
  );
}
