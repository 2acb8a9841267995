ALTER TABLE "emails" DROP CONSTRAINT "emails_workspace_id_workspaces_id_fk";
--> statement-breakpoint
ALTER TABLE "emails" DROP CONSTRAINT "emails_mailbox_id_mailboxes_id_fk";
--> statement-breakpoint
ALTER TABLE "emails" DROP CONSTRAINT "emails_lead_id_leads_id_fk";
--> statement-breakpoint
-- emails keeps no foreign keys: its one writer, the send engine's commit, takes workspace, mailbox and
-- lead from the campaign_leads rows it updates in the same statement, and the three per-row FK checks
-- were about 40% of that statement (bench:send, the scheduler tick). What the keys did on delete is done
-- here, a statement per delete instead of a statement per row.
--
-- ON DELETE CASCADE from workspaces. Before the workspace row goes, so the analytics triggers see the
-- emails leave before analytics_workspaces_delete clears the workspace's rollups (as the cascade did).
create function emails_workspace_delete() returns trigger language plpgsql as $fn$
begin
  delete from emails where workspace_id = old.id;
  return old;
end
$fn$;
--> statement-breakpoint
create trigger emails_workspace_delete before delete on workspaces for each row execute function emails_workspace_delete();
--> statement-breakpoint
-- ON DELETE SET NULL from leads (spec 4.4 rule 10: the email outlives its lead, lead_email keeps the address).
create function emails_leads_delete() returns trigger language plpgsql as $fn$
begin
  update emails e set lead_id = null from old_rows o where e.lead_id = o.id;
  return null;
end
$fn$;
--> statement-breakpoint
create trigger emails_leads_delete after delete on leads referencing old table as old_rows for each statement execute function emails_leads_delete();
--> statement-breakpoint
-- ON DELETE RESTRICT from mailboxes: a mailbox that has sent cannot be deleted (the API refuses it first
-- with 409; this holds against a send committed between that check and the delete). Same error code.
create function emails_mailboxes_delete() returns trigger language plpgsql as $fn$
declare hit text;
begin
  select e.mailbox_id into hit from emails e join old_rows o on e.mailbox_id = o.id limit 1;
  if hit is not null then
    raise exception 'update or delete on table "mailboxes" violates foreign key constraint "emails_mailbox_id_mailboxes_id_fk" on table "emails"'
      using errcode = 'foreign_key_violation', detail = format('Key (id)=(%s) is still referenced from table "emails".', hit);
  end if;
  return null;
end
$fn$;
--> statement-breakpoint
create trigger emails_mailboxes_delete after delete on mailboxes referencing old table as old_rows for each statement execute function emails_mailboxes_delete();
