-- 0027's workspace trigger ran BEFORE each workspace row was deleted. Two faults, found in review:
-- a send committed while a workspace is being deleted (its insert no longer locks the workspace row)
-- was missed, and the mailbox check then failed the delete with 23503, where the cascade had waited
-- for the send and deleted its email; and with the workspace row still there, the analytics triggers
-- rewrote the workspace's counts for every email deleted, only for analytics_workspaces_delete to drop
-- them. AFTER the statement instead: the workspace's own cascades (campaign_leads among them) have
-- waited out any send in flight, analytics_workspaces_delete has run (triggers of one event fire in
-- name order), and the emails' analytics triggers skip rows whose workspace is gone — as with the
-- cascade. One statement per delete, however many workspaces.
drop trigger emails_workspace_delete on workspaces;
--> statement-breakpoint
drop function emails_workspace_delete();
--> statement-breakpoint
create function emails_workspaces_delete() returns trigger language plpgsql as $fn$
begin
  delete from emails e using old_rows o where e.workspace_id = o.id;
  return null;
end
$fn$;
--> statement-breakpoint
create trigger emails_workspaces_delete after delete on workspaces referencing old table as old_rows for each statement execute function emails_workspaces_delete();
--> statement-breakpoint
-- The mailbox check's error as RESTRICT gave it, with the constraint and table named.
create or replace function emails_mailboxes_delete() returns trigger language plpgsql as $fn$
declare hit text;
begin
  select e.mailbox_id into hit from emails e join old_rows o on e.mailbox_id = o.id limit 1;
  if hit is not null then
    raise exception 'update or delete on table "mailboxes" violates RESTRICT setting of foreign key constraint "emails_mailbox_id_mailboxes_id_fk" on table "emails"'
      using errcode = 'foreign_key_violation', detail = format('Key (id)=(%s) is referenced from table "emails".', hit),
        constraint = 'emails_mailbox_id_mailboxes_id_fk', table = 'emails', schema = 'public';
  end if;
  return null;
end
$fn$;
