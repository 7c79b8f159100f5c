import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusNotDeclaredError, StatusReservedForEngineError } from './case.errors.js';
import { DEFAULT_STATUSES, type StatusRules } from '../../workflows/domain/status-rules.js';
import { type Actor, Case, type CaseEvent, type CaseProps, type NewCase } from './case.js';

const API: Actor = { kind: 'api_token', tokenId: 7 };
const AUTOMATION: Actor = { kind: 'automation' };
const ENGINE: Actor = { kind: 'engine' };
const NOW = new Date(Date.UTC(2026, 10, 21, 20, 18, 30, 987));

/** Rules of a workflow with custom statuses `Triage` and `Waiting`; `runs` lists the statuses that have automation. */
function rules({ defaultOutcome = 'Handled' as string | null, runs = ['Open', 'Triage'] } = {}): StatusRules {
  return { statuses: new Set([...DEFAULT_STATUSES, 'Triage', 'Waiting']), defaultOutcome, hasRun: (status) => runs.includes(status) };
}

function newCase(overrides: Partial<NewCase> = {}): NewCase {
  return {
    organizationId: 1,
    workflowId: 2,
    workflowVersion: 3,
    workflowName: 'Customer escalations',
    mode: 'live',
    source: 'API',
    attributes: '{"a": 1}',
    actor: API,
    ...overrides,
  };
}

function stored(status = 'Open', outcome: string | null = null): Case {
  const props: CaseProps = {
    id: 10,
    organizationId: 1,
    workflowId: 2,
    workflowVersion: 3,
    subject: 'Refund',
    status,
    outcome,
    mode: 'live',
    source: 'API',
    attributes: '{}',
    priority: 'normal',
    assigneeId: null,
    teamId: null,
    createdAt: NOW,
    updatedAt: NOW,
  };
  return Case.restore(props);
}

/** Whether the single event of a move starts a run. */
function startsRun(events: CaseEvent[]): boolean {
  assert.equal(events.length, 1);
  assert.equal(events[0]!.type, 'status_changed');
  return 'startsRun' in events[0]! && events[0].startsRun;
}

/** A refused move leaves the case as it was and records nothing. */
function assertRefused(subject: Case, move: () => void, error: new (...args: never[]) => Error) {
  const before = { ...subject.snapshot() };
  assert.throws(move, error);
  assert.deepEqual(subject.snapshot(), before);
  assert.deepEqual(subject.pullEvents(), []);
}

describe('Case.open', () => {
  it('starts Open with no outcome and keeps the draft fields', () => {
    const draft = Case.open(newCase({ subject: 'Refund for order 42', mode: 'test' }), rules(), NOW);
    assert.deepEqual(draft.props, {
      organizationId: 1,
      workflowId: 2,
      workflowVersion: 3,
      subject: 'Refund for order 42',
      status: 'Open',
      outcome: null,
      mode: 'test',
      source: 'API',
      attributes: '{"a": 1}',
    });
  });

  for (const [label, subject] of [['missing', undefined], ['null', null], ['empty', ''], ['whitespace', ' \t\n ']] as const) {
    it(`gives a ${label} subject the timestamped default`, () => {
      const draft = Case.open(newCase({ subject }), rules(), NOW);
      assert.equal(draft.props.subject, 'Customer escalations via API - 2026-11-21 20:18:30 UTC');
    });
  }

  it('names the webhook source in the default subject of a webhook case', () => {
    const draft = Case.open(newCase({ source: 'Webhook', actor: { kind: 'webhook' } }), rules(), NOW);
    assert.equal(draft.props.subject, 'Customer escalations via Webhook - 2026-11-21 20:18:30 UTC');
  });

  it('records a created event that starts a run when Open has automation', () => {
    const draft = Case.open(newCase({ mode: 'test' }), rules({ runs: ['Open'] }), NOW);
    assert.deepEqual(draft.events, [{ type: 'created', actor: API, source: 'API', mode: 'test', status: 'Open', startsRun: true }]);
  });

  it('records a created event that starts no run when Open has no automation', () => {
    const draft = Case.open(newCase(), rules({ runs: [] }), NOW);
    assert.deepEqual(draft.events, [{ type: 'created', actor: API, source: 'API', mode: 'live', status: 'Open', startsRun: false }]);
  });
});

describe('Case.moveTo', () => {
  it('moves to a custom status with no outcome, starting its run', () => {
    const subject = stored();
    subject.moveTo('Triage', rules(), API);
    assert.equal(subject.status, 'Triage');
    assert.equal(subject.outcome, null);
    assert.deepEqual(subject.pullEvents(), [{ type: 'status_changed', actor: API, from: 'Open', to: 'Triage', outcome: null, startsRun: true }]);
  });

  it('says no run starts when the status has no automation', () => {
    const subject = stored();
    subject.moveTo('Waiting', rules(), API);
    assert.equal(startsRun(subject.pullEvents()), false);
  });

  it('closes with the workflow default outcome', () => {
    const subject = stored('Triage');
    subject.moveTo('Closed', rules(), API);
    assert.equal(subject.status, 'Closed');
    assert.equal(subject.outcome, 'Handled');
    assert.deepEqual(subject.pullEvents(), [{ type: 'status_changed', actor: API, from: 'Triage', to: 'Closed', outcome: 'Handled', startsRun: false }]);
  });

  it('closes with "Resolved" when the workflow has no default outcome', () => {
    const subject = stored();
    subject.moveTo('Closed', rules({ defaultOutcome: null }), API);
    assert.equal(subject.outcome, 'Resolved');
  });

  it('lets a close step\'s explicit outcome win over the default', () => {
    const subject = stored();
    subject.moveTo('Closed', rules(), AUTOMATION, { outcome: 'Auto-resolved' });
    assert.equal(subject.outcome, 'Auto-resolved');
    assert.deepEqual(subject.pullEvents(), [{ type: 'status_changed', actor: AUTOMATION, from: 'Open', to: 'Closed', outcome: 'Auto-resolved', startsRun: false }]);
  });

  it('ignores an outcome when the target is not Closed', () => {
    const subject = stored();
    subject.moveTo('Triage', rules(), AUTOMATION, { outcome: 'Auto-resolved' });
    assert.equal(subject.outcome, null);
  });

  it('clears the outcome when the case leaves Closed', () => {
    const subject = stored('Closed', 'Handled');
    subject.moveTo('Open', rules(), API);
    assert.equal(subject.status, 'Open');
    assert.equal(subject.outcome, null);
    assert.deepEqual(subject.pullEvents(), [{ type: 'status_changed', actor: API, from: 'Closed', to: 'Open', outcome: null, startsRun: true }]);
  });

  it('records re-entering Closed as a move', () => {
    const subject = stored('Closed', 'Auto-resolved');
    subject.moveTo('Closed', rules(), API);
    assert.equal(subject.outcome, 'Handled');
    assert.deepEqual(subject.pullEvents(), [{ type: 'status_changed', actor: API, from: 'Closed', to: 'Closed', outcome: 'Handled', startsRun: false }]);
  });

  it('records re-entering a custom status and starts its run again', () => {
    const subject = stored('Triage');
    subject.moveTo('Triage', rules(), API);
    assert.deepEqual(subject.pullEvents(), [{ type: 'status_changed', actor: API, from: 'Triage', to: 'Triage', outcome: null, startsRun: true }]);
  });

  for (const actor of [API, AUTOMATION, { kind: 'webhook' } as Actor]) {
    it(`refuses Error for a ${actor.kind} actor`, () => {
      const subject = stored('Triage');
      assertRefused(subject, () => subject.moveTo('Error', rules(), actor), StatusReservedForEngineError);
    });
  }

  it('refuses a status the workflow does not declare, case-sensitively', () => {
    for (const status of ['Escalated', 'closed', 'open', '']) {
      const subject = stored();
      assertRefused(subject, () => subject.moveTo(status, rules(), API), StatusNotDeclaredError);
    }
  });

  it('refuses an undeclared status for the engine too', () => {
    const subject = stored();
    assertRefused(subject, () => subject.moveTo('Escalated', rules(), ENGINE), StatusNotDeclaredError);
  });

  it('answers both refusals with the status_not_allowed code', () => {
    assert.equal(new StatusNotDeclaredError('x').code, 'case.status_not_allowed');
    assert.equal(new StatusReservedForEngineError().code, 'case.status_not_allowed');
  });
});

describe('Case.park and recovery', () => {
  it('parks the case in Error with the reason, as the engine', () => {
    const subject = stored('Closed', 'Handled');
    subject.park(rules(), 'http_request failed after 3 retries');
    assert.equal(subject.status, 'Error');
    assert.equal(subject.outcome, null);
    assert.deepEqual(subject.pullEvents(), [
      { type: 'status_changed', actor: ENGINE, from: 'Closed', to: 'Error', outcome: null, startsRun: false, reason: 'http_request failed after 3 retries' },
    ]);
  });

  it('lets the API recover an errored case to a declared status', () => {
    const subject = stored('Error');
    subject.moveTo('Open', rules(), API);
    assert.equal(subject.status, 'Open');
    assert.deepEqual(subject.pullEvents(), [{ type: 'status_changed', actor: API, from: 'Error', to: 'Open', outcome: null, startsRun: true }]);
  });

  it('lets the API close an errored case', () => {
    const subject = stored('Error');
    subject.moveTo('Closed', rules(), API);
    assert.equal(subject.outcome, 'Handled');
  });
});

describe('Case events', () => {
  it('hands out each event once, in order', () => {
    const subject = stored();
    subject.moveTo('Triage', rules(), API);
    subject.moveTo('Closed', rules(), AUTOMATION, { outcome: 'Done' });
    assert.deepEqual(
      subject.pullEvents().map((e) => e.type === 'status_changed' && [e.from, e.to, e.outcome]),
      [['Open', 'Triage', null], ['Triage', 'Closed', 'Done']],
    );
    assert.deepEqual(subject.pullEvents(), []);
    assert.equal(subject.snapshot().status, 'Closed');
  });

  it('reports startsRun from the rules for every target status', () => {
    const runs = ['Waiting', 'Closed'];
    for (const status of ['Open', 'Triage', 'Waiting', 'Closed']) {
      const subject = stored();
      subject.moveTo(status, rules({ runs }), API);
      assert.equal(startsRun(subject.pullEvents()), runs.includes(status), status);
    }
  });

  describe('an email reply', () => {
    const message = { attachments: [], messageId: '<r@example.com>' };
    const EMAIL: Actor = { kind: 'email' };

    it('is recorded with its fields; an Open or Triage case keeps its status', () => {
      for (const status of ['Open', 'Triage']) {
        const subject = stored(status);
        subject.receiveEmail({ subject: 'Re: x' }, message, rules());
        assert.deepEqual(subject.pullEvents(), [{ type: 'email_received', actor: EMAIL, email: { subject: 'Re: x' }, message }]);
        assert.equal(subject.status, status);
      }
    });

    it('reopens a Closed case after recording it: a move to Open by email that clears the outcome and starts Open\'s run', () => {
      const subject = stored('Closed', 'Handled');
      subject.receiveEmail({ subject: 'Re: x' }, message, rules());
      const [received, reopened] = subject.pullEvents();
      assert.equal(received!.type, 'email_received');
      assert.deepEqual(reopened, { type: 'status_changed', actor: EMAIL, from: 'Closed', to: 'Open', outcome: null, startsRun: true });
      assert.deepEqual([subject.status, subject.outcome], ['Open', null]);
      assert.ok(subject.runStartedBy(reopened!));
    });
  });
});
