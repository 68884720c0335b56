/*
 * vlock.pml - SPIN model of vlock_trylock/vlock_unlock (arch/arm/common/vlock.S)
 *
 * Parameters (spin -D...):
 *   NCPUS=N    number of contending CPUs, 1..4 (default 2)
 *   ROUNDS=R   0 (default): one election.  Every CPU calls vlock_trylock
 *              once, nobody unlocks; when all have returned, a checker
 *              asserts exactly one winner, and that every CPU that re-read
 *              the owner byte saw the winner's vote.
 *              R>0: lock use.  Every CPU makes R attempts; a winner enters
 *              a critical section (mutual exclusion asserted) and then calls
 *              vlock_unlock, so elections overlap with unlocks and re-votes.
 *   Mutations: see vlock.pmh.
 *
 * Properties:
 *   safety   (pan -DSAFETY): the assertions below, and no invalid end state
 *            (no CPU is left blocked: every contender terminates).
 *   liveness (pan -a -f, ltl "term"): under weak fairness every contender
 *            eventually returns, i.e. no waiting loop spins forever.
 */

#ifndef NCPUS
#define NCPUS 2
#endif
#ifndef ROUNDS
#define ROUNDS 0
#endif

#include "vlock.pmh"

byte finished = 0;	/* CPUs that have returned from their last attempt */
byte winners = 0;	/* ROUNDS == 0: CPUs whose trylock returned 0 */
byte winner = 0;	/* ROUNDS == 0: the winner's vote (cpu + 4) */
byte seen_mask = 0;	/* ROUNDS == 0: CPUs that re-read the owner byte */
byte seen_val[NCPUS];	/* ... and what they read */
byte in_cs = 0;		/* ROUNDS > 0: CPUs holding the lock */

proctype cpu(byte me)
{
	bool won = false;
	byte seen = 0;
#if ROUNDS > 0
	byte r = 0;

	do
	:: r < ROUNDS ->
		r++;
		vlock_trylock(me, won, seen);
		if
		:: won ->
			atomic { in_cs++; assert(in_cs == 1) };	/* mutual exclusion */
			in_cs--;
			vlock_unlock()
		:: else
		fi
	:: else -> break
	od;
	finished++
#else
	vlock_trylock(me, won, seen);
	atomic {
		if
		:: won -> winners++; winner = me + VLOCK_VOTING_OFFSET
		:: else
		fi;
		if
		:: seen != 0 -> seen_mask = seen_mask | (1 << me); seen_val[me] = seen
		:: else
		fi;
		finished++
	}
#endif
}

#if ROUNDS == 0
/* Checked once every contender has returned (this state is always reached:
 * a run with a blocked CPU is reported as an invalid end state instead). */
proctype checker()
{
	byte i = 0;

	finished == NCPUS;
	atomic {
		assert(winners == 1);			/* at most one, and one */
		assert(vl_owner == winner);		/* the lock is held by it */
		do
		:: i < NCPUS ->
			/* all that looked agree on who won */
			assert(((seen_mask >> i) & 1) == 0 || seen_val[i] == winner);
			i++
		:: else -> break
		od
	}
}
#endif

init
{
	byte i = 0;

	atomic {
		do
		:: i < NCPUS -> run cpu(i); i++
		:: else -> break
		od;
#if ROUNDS == 0
		run checker()
#endif
	}
}

ltl term { <> (finished == NCPUS) }
