/**
 * Live process groups: every detached child is its own group (pgid = pid). Groups are tracked
 * here so the program can kill what is still running when it exits or is interrupted.
 */

const live = new Set<number>();

export function trackGroup(pgid: number): void {
  live.add(pgid);
}

export function untrackGroup(pgid: number): void {
  live.delete(pgid);
}

export function trackedGroups(): number[] {
  return [...live];
}

/** Sends a signal to every process of a group; a group that is already gone is not an error. */
export function signalGroup(pgid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pgid, signal);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return; // ESRCH: nobody left
    if (error instanceof Error && /ESRCH|No such process/i.test(error.message)) return;
    throw error;
  }
}

/**
 * Whether any process (zombies included) is in the group: `kill(-pgid, 0)`, the POSIX probe that
 * sends nothing. Deno's types list only named signals, but its kill passes 0 through.
 */
export function groupExists(pgid: number): boolean {
  try {
    Deno.kill(-pgid, 0 as unknown as Deno.Signal);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    return true; // EPERM or an unexpected answer: assume it exists and look closer
  }
}

/**
 * Live (non-zombie) members of a process group, read from `/proc` on Linux and from `ps`
 * elsewhere. Zombies are dead: they only wait for a parent to reap them (in containers whose
 * PID 1 does not reap, orphans stay zombies forever).
 */
export function processGroupMembers(pgid: number): number[] {
  if (!groupExists(pgid)) return [];
  try {
    return procGroupMembers(pgid);
  } catch {
    return psGroupMembers(pgid);
  }
}

function procGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
    } catch {
      continue; // exited while we were looking
    }
    // pid (comm) state ppid pgrp …; comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") {
      members.push(Number(entry.name));
    }
  }
  return members;
}

function psGroupMembers(pgid: number): number[] {
  const out = new Deno.Command("ps", { args: ["-o", "pid=,stat=", "-g", String(pgid)] })
    .outputSync();
  return new TextDecoder().decode(out.stdout).split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter(([pid, stat]) => pid && stat && !stat.startsWith("Z"))
    .map(([pid]) => Number(pid));
}
