// What the user is told when opening found something wrong with the journal.
import type { JournalProblem } from './journalFormat';
import type { StoreNotice } from './types';

export function tornTailNotice(journalFile: string, problem: JournalProblem, bytes: number): StoreNotice {
  return {
    kind: 'journal-torn-tail',
    message:
      `Skipped an incomplete last entry (${bytes} bytes, line ${problem.line}: ${problem.reason}) in ${journalFile}. ` +
      'It was being written when the program stopped and had not been saved yet.',
  };
}

export function corruptJournalNotice(journalFile: string, problem: JournalProblem, applied: number, movedTo: string): StoreNotice {
  return {
    kind: 'journal-moved-aside',
    message:
      `The session journal ${journalFile} is damaged at line ${problem.line} (${problem.reason}). ` +
      `${applied} change(s) before it were recovered; later ones could not be applied. The journal was kept as ${movedTo}.`,
    movedTo: [movedTo],
  };
}

export function orphanJournalNotice(file: string, entries: number, movedTo: string): StoreNotice {
  return {
    kind: 'journal-moved-aside',
    message:
      `The session database ${file} was missing but its journal (${entries} change(s)) was not. ` +
      `A new, empty database was created; the journal was kept as ${movedTo}.`,
    movedTo: [movedTo],
  };
}
