import { useEffect, useState } from 'react';
import { dealText } from './fair-deal';
import { checkRound, type RoundCheck, type RoundToCheck } from './fairness';

/**
 * How a player checks a round, in plain words, then the algorithm exactly (docs/casino.md
 * "The algorithm, exactly", which the web does not serve, so it is stated here).
 */
export function FairnessSteps() {
  return (
    <div className="fair-steps" data-testid="fairness-steps">
      <ol>
        <li>
          Before betting opened, the table published the round's <b>commitment</b>: the SHA-256 hash of a secret 32-byte <b>seed</b>. The hash gives
          nothing of the seed away, and nobody can find another seed with the same hash, so the table cannot change the seed once the commitment is
          out.
        </li>
        <li>After the deal, the seed is revealed.</li>
        <li>SHA-256 of the seed's 32 bytes must be the commitment.</li>
        <li>
          The deal is a fixed function of the seed and the round id: HMAC-SHA256 keyed with the seed, over the round id and a counter, gives a stream of
          numbers; they shuffle a fresh pack in a published way, and the game deals from the top. Anyone can recompute it, and it must be the deal the
          round shows.
        </li>
      </ol>
      <p className="small">This page does both checks in your browser; the server is not asked. Any SHA-256 and HMAC-SHA256 tool can repeat them.</p>
      <details>
        <summary>The algorithm, exactly</summary>
        <ol className="small">
          <li>
            <b>Stream.</b> Block i (i = 0, 1, 2, …) is HMAC-SHA256 with the seed's 32 bytes as key, over the round id's UTF-8 bytes followed by i as
            8 bytes, big-endian. The stream is block 0, block 1, … one after another.
          </li>
          <li>
            <b>Numbers.</b> Each number is the next 4 bytes of the stream, read big-endian (0 to 2³² − 1).
          </li>
          <li>
            <b>below(n)</b>, a number from 0 to n − 1: let limit = 2³² − (2³² mod n); take the next number x; if x &lt; limit the answer is x mod n,
            otherwise take another (so no answer is more likely than another).
          </li>
          <li>
            <b>Shuffle.</b> For i from the pack's last position down to 1: j = below(i + 1), swap the cards at positions i and j.
          </li>
          <li>
            <b>Packs</b> start in order before the shuffle: spades, hearts, diamonds, clubs, and A 2 3 … 10 J Q K within each suit (AS 2S … KS AH
            … KC). Baccarat's shoe is eight such decks one after another; Bollywood's pack is J Q K A of spades, then hearts, diamonds, clubs.
          </li>
          <li>
            <b>Dealing.</b> Every card game shuffles the whole pack each round and deals from the top, position 0 first: Teen Patti A B A B A B;
            Teen Patti Test Tiger, Lion, Dragon three times; Dragon then Tiger; Hi-Low the base card then the next; 2 Card Teen Patti and Poker's
            hole cards A B A B (then Poker's five board cards); baccarat Player, Banker, Player, Banker, then the third cards its rules call
            for; Queen to Total 0, 1, 2, 3 in turn (they start at 0, 1, 2, 3 points) until one reaches 20; Andar Bahar the joker, then Andar, Bahar in turn until a card of the
            joker's rank.
          </li>
          <li>
            <b>Numbers games</b> draw instead: roulette's pocket is below(37); Worli Matka's six digits are six below(10) draws, the open draw's
            three then the close draw's three.
          </li>
        </ol>
        <p className="small">Cards are written rank then suit: ranks A 2 3 4 5 6 7 8 9 T J Q K (T is 10), suits S H D C.</p>
      </details>
    </div>
  );
}

/** The query of /casino/verify that fills its form: `game`, `round`, `seed`, `commitment`, `dealt`. */
export interface VerifyQuery {
  game: string;
  roundId: string;
  seed: string;
  commitment: string;
  dealt?: string;
}

/** /casino/verify with its form filled in from `query` (blank values left out). */
export function verifyPath(query: VerifyQuery): string {
  const params = new URLSearchParams();
  const pairs: [string, string | undefined][] = [
    ['game', query.game],
    ['round', query.roundId],
    ['seed', query.seed],
    ['commitment', query.commitment],
    ['dealt', query.dealt],
  ];
  for (const [name, value] of pairs) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `/casino/verify?${text}` : '/casino/verify';
}

/** {@link checkRound} of `round` in this browser, again whenever the round changes; null while it runs. */
export function useRoundCheck(round: RoundToCheck): RoundCheck | null {
  const [check, setCheck] = useState<{ key: string; result: RoundCheck } | null>(null);
  const key = JSON.stringify(round);
  useEffect(() => {
    let live = true;
    const asked = JSON.parse(key) as RoundToCheck;
    checkRound(asked).then(
      (result) => live && setCheck({ key, result }),
      (error: unknown) => live && setCheck({ key, result: { kind: 'cannot-check', reason: error instanceof Error ? error.message : String(error) } }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return check?.key === key ? check.result : null;
}

/** The verdicts of a round checked in this browser: the commitment, then the deal. */
export function RoundVerdict({ round }: { round: RoundToCheck }) {
  const check = useRoundCheck(round);
  if (!check) {
    return (
      <p className="notice" data-testid="commitment-check" data-state="checking">
        Checking this round…
      </p>
    );
  }
  switch (check.kind) {
    case 'cannot-check':
      return (
        <p className="notice error" role="alert" data-testid="commitment-check" data-state="cannot-check">
          ✗ This round cannot be checked: {check.reason}
        </p>
      );
    case 'unsupported':
      return (
        <p className="notice" data-testid="commitment-check" data-state="unsupported">
          This browser cannot compute SHA-256 here (WebCrypto needs https or localhost). The steps above can be followed with any SHA-256 and
          HMAC-SHA256 tool.
        </p>
      );
    case 'checked':
      return (
        <div className="round-verdicts">
          <CommitmentVerdict check={check} commitment={round.commitment.trim()} />
          <DealVerdict check={check} shown={round.shown !== null} />
        </div>
      );
  }
}

type Checked = Extract<RoundCheck, { kind: 'checked' }>;

function CommitmentVerdict({ check, commitment }: { check: Checked; commitment: string }) {
  if (check.commitmentMatches === null) {
    return (
      <div className="notice" data-testid="commitment-check" data-state="no-commitment">
        <p>SHA-256 of this seed is</p>
        <code>{check.actualCommitment}</code>
        <p>It must be the commitment the table showed before betting opened.</p>
      </div>
    );
  }
  if (check.commitmentMatches) {
    return (
      <p className="notice success" data-testid="commitment-check" data-state="match">
        ✓ Commitment matches: SHA-256 of the revealed seed is the commitment published before the round.
      </p>
    );
  }
  return (
    <div className="notice error" role="alert" data-testid="commitment-check" data-state="mismatch">
      <p>✗ Commitment does NOT match: SHA-256 of the revealed seed is</p>
      <code>{check.actualCommitment}</code>
      <p>but the commitment published before the round is</p>
      <code>{commitment}</code>
    </div>
  );
}

function DealVerdict({ check, shown }: { check: Checked; shown: boolean }) {
  const dealt = dealText(check.deal);
  if (!shown) {
    return (
      <p className="notice" data-testid="deal-check" data-state="recomputed">
        The seed deals: <b data-testid="recomputed-deal">{dealt}</b>. Compare it with what the table dealt.
      </p>
    );
  }
  if (check.difference === null) {
    return (
      <p className="notice success" data-testid="deal-check" data-state="match">
        ✓ Deal matches: <b data-testid="recomputed-deal">{dealt}</b>, recomputed here from the seed and the round id.
      </p>
    );
  }
  return (
    <div className="notice error" role="alert" data-testid="deal-check" data-state="mismatch">
      <p>✗ Deal does NOT match: {check.difference}.</p>
      <p>
        The seed and round id deal <b data-testid="recomputed-deal">{dealt}</b>.
      </p>
    </div>
  );
}
