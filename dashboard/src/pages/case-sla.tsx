import type { Case } from '../api.ts';
import { Badge, TableScroll } from '../components.tsx';
import { humanize } from '../format.ts';

type CaseSla = NonNullable<Case['sla']>;
type Clock = NonNullable<CaseSla['first_response']>;

const CLOCKS = ['first_response', 'next_response', 'resolution'] as const;
const STATE_TONES: Record<Clock['state'], 'blue' | 'amber' | 'green' | 'red'> = { running: 'blue', paused: 'amber', met: 'green', breached: 'red' };

/** The browser's own time zone: the viewer's. */
const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A moment as a wall clock in `timeZone`, with the zone's short name, so that two zones side by side cannot be mistaken. */
function inZone(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }).format(new Date(iso));
}

function When({ iso, timeZone }: { iso: string | null; timeZone: string }) {
  if (iso === null) return <span class="muted">—</span>;
  return (
    <time dateTime={iso} title={iso}>
      {inZone(iso, timeZone)}
    </time>
  );
}

/**
 * The case's SLA clocks (sla.md section 2): each clock's state and due time, in the viewer's
 * time zone and in the calendar's, whose business hours the clocks count in (a deadline
 * promised to a requester is usually said in the team's zone, read in one's own).
 */
export function CaseSlaClocks({ sla }: { sla: CaseSla }) {
  const calendar = sla.calendar;
  const mine = viewerZone();
  const shown = CLOCKS.filter((name) => sla[name] !== undefined);
  return (
    <section class="card" aria-labelledby="case-sla">
      <h2 id="case-sla" class="card__title">
        Service levels {calendar && <span class="card__subtitle">in the business hours of {calendar.name}</span>}
      </h2>
      {shown.length === 0 ? (
        <p class="muted">No SLA target applies at this case’s priority.</p>
      ) : (
        <TableScroll label="SLA clocks">
          <table class="table table--compact">
            <thead>
              <tr>
                <th scope="col">Clock</th>
                <th scope="col">State</th>
                <th scope="col">Due, your time ({mine})</th>
                {calendar && <th scope="col">Due, calendar time ({calendar.time_zone})</th>}
                <th scope="col">Met</th>
                <th scope="col">Breached</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((name) => {
                const clock = sla[name]!;
                return (
                  <tr key={name}>
                    <th scope="row">{humanize(name)}</th>
                    <td>
                      <Badge tone={STATE_TONES[clock.state]}>{clock.state}</Badge>
                    </td>
                    <td>{clock.due_at === null ? <span class="muted">Paused: no due time</span> : <When iso={clock.due_at} timeZone={mine} />}</td>
                    {calendar && <td>{clock.due_at === null ? <span class="muted">Paused: no due time</span> : <When iso={clock.due_at} timeZone={calendar.time_zone} />}</td>}
                    <td>
                      <When iso={clock.met_at} timeZone={mine} />
                    </td>
                    <td>
                      <When iso={clock.breached_at} timeZone={mine} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
