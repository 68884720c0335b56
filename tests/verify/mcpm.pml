/*
 * mcpm.pml - SPIN model of the MCPM cluster power-up/power-down race
 * avoidance algorithm as Linux 6.1 implements it, for one cluster:
 *
 *   outbound: mcpm_cpu_power_down() in arch/arm/common/mcpm_entry.c with
 *             __mcpm_cpu_going_down, the last-man choice under mcpm_lock,
 *             __mcpm_outbound_enter_critical / __mcpm_outbound_leave_critical
 *             and __mcpm_cpu_down;
 *   inbound:  mcpm_entry_point in arch/arm/common/mcpm_head.S (CPU_COMING_UP,
 *             vlock first-man election, cluster setup by the first man,
 *             INBOUND_COMING_UP, the CLUSTER_GOING_DOWN wait, CPU_UP) and
 *             mcpm_cpu_powered_up();
 *   requests: mcpm_cpu_power_up() issued by the rest of the system.
 *
 * Every CPU starts either running (CPU_UP, use count 1, as mcpm_sync_init
 * leaves the online CPUs) or powered off (CPU_DOWN, use count 0), chosen
 * nondeterministically; the cluster starts CLUSTER_UP if any CPU runs and
 * CLUSTER_DOWN otherwise.  A running CPU may decide to power down; a CPU
 * that is off is woken by a power-up request or by a wake-up event
 * (suspend/IRQ: it comes up with use count 0).
 *
 * Parameters (spin -D...):
 *   NCPUS=N     CPUs in the cluster, 1..4 (default 2)
 *   DOWNS=D     power-down operations per CPU (default 1)
 *   REQS=Q      mcpm_cpu_power_up() requests per CPU (default 1)
 *   HWWAKES=W   wake-up events without a request, per CPU (default 1)
 *   CANCELS=K   mcpm_cpu_power_up_cancel() calls per CPU (default 0): the
 *               series' undo of a power-up request whose CPU never came
 *               up.  Under mcpm_lock, if the CPU's use count is 1 and it is
 *               still CPU_DOWN, the count goes back to 0; otherwise -EBUSY
 *               and nothing changes.  (A CPU_ON that lands after all brings
 *               the CPU up like a wake-up event, with use count 0 -> 1.)
 *
 * Mutations (non-vacuity):
 *   MUT_NO_INBOUND_CHECK      enter_critical does not back out on
 *                             INBOUND_COMING_UP
 *   MUT_COMINGUP_IS_DOWN      enter_critical's CPU loop accepts CPU_COMING_UP
 *                             like CPU_DOWN
 *   MUT_NO_TEARDOWN_WAIT      the first man does not wait while the cluster
 *                             is CLUSTER_GOING_DOWN
 *   MUT_NO_FIRST_MAN_LOCK     the first-man vlock always "wins"
 *   MUT_NO_SETUP_SEV          the first man leaves setup without SEV
 *                             (survives: vlock_unlock's SEV right after it
 *                             wakes the CPUs in mcpm_setup_wait)
 *   MUT_NO_LEAVE_SEV          __mcpm_outbound_leave_critical without SEV
 *                             (survives: __mcpm_cpu_down's SEV follows)
 *   MUT_LEAK_FIRST_MAN_LOCK   a first man that finds the cluster up does not
 *                             release the vlock: later inbound CPUs lose the
 *                             election and wait for a cluster setup that
 *                             nobody does (a liveness mutant)
 *   MUT_CANCEL_NO_STATE_CHECK cancel does not check that the CPU is still
 *                             CPU_DOWN: a CPU that came up loses its count
 *   MUT_CANCEL_DECREMENT      cancel decrements the use count without
 *                             checking it is 1 (0 wraps round)
 *   MUT_CANCEL_NO_LOCK        cancel does not take mcpm_lock: its check and
 *                             its store are no longer one step
 *   plus the vlock mutations of vlock.pmh.
 *   STRICT_CPU_UP             not a mutation: additionally asserts that the
 *                             cluster is CLUSTER_UP at the instant a CPU
 *                             stores CPU_UP (SPIN refutes it: an outbound
 *                             may have stored CLUSTER_GOING_DOWN since; it
 *                             then sees the CPU and backs out)
 *   STRICT_TEARDOWN           not a mutation: additionally asserts, when
 *                             teardown starts, that every other CPU is
 *                             CPU_DOWN (a stronger property than the design
 *                             promises; SPIN refutes it)
 */

#ifndef NCPUS
#define NCPUS 2
#endif
#ifndef DOWNS
#define DOWNS 1
#endif
#ifndef REQS
#define REQS 1
#endif
#ifndef HWWAKES
#define HWWAKES 1
#endif
#ifndef CANCELS
#define CANCELS 0
#endif

#include "vlock.pmh"

/* arch/arm/include/asm/mcpm.h */
#define CPU_DOWN		17	/* 0x11 */
#define CPU_COMING_UP		18	/* 0x12 */
#define CPU_UP			19	/* 0x13 */
#define CPU_GOING_DOWN		20	/* 0x14 */
#define CLUSTER_DOWN		33	/* 0x21 */
#define CLUSTER_UP		34	/* 0x22 */
#define CLUSTER_GOING_DOWN	35	/* 0x23 */
#define INBOUND_NOT_COMING_UP	49	/* 0x31 */
#define INBOUND_COMING_UP	50	/* 0x32 */

/* struct mcpm_sync_struct for the cluster */
byte cpu_st[NCPUS];
byte cluster_st;
byte inbound_st = INBOUND_NOT_COMING_UP;

/* mcpm_entry.c: mcpm_lock (arch spinlock) and mcpm_cpu_use_count[] */
bit mcpm_lock = 0;
byte use[NCPUS];
byte reqs[NCPUS];	/* power-up requests issued so far, per CPU */
byte cancels[NCPUS];	/* mcpm_cpu_power_up_cancel() calls so far, per CPU */

/* Ghost state for the properties (not in the code) */
byte in_setup = 0;	/* CPUs executing cluster setup: power_up_setup(1) */
byte in_fm = 0;		/* CPUs holding the first-man vlock */
bit in_teardown = 0;	/* outbound between enter_critical() == true and
			   leave_critical(CLUSTER_DOWN) */

#if NCPUS == 1
#define NONE_UP (cpu_st[0] != CPU_UP)
#define ALL_UNUSED (use[0] == 0)
#elif NCPUS == 2
#define NONE_UP (cpu_st[0] != CPU_UP && cpu_st[1] != CPU_UP)
#define ALL_UNUSED (use[0] == 0 && use[1] == 0)
#elif NCPUS == 3
#define NONE_UP (cpu_st[0] != CPU_UP && cpu_st[1] != CPU_UP && \
		 cpu_st[2] != CPU_UP)
#define ALL_UNUSED (use[0] == 0 && use[1] == 0 && use[2] == 0)
#else
#define NONE_UP (cpu_st[0] != CPU_UP && cpu_st[1] != CPU_UP && \
		 cpu_st[2] != CPU_UP && cpu_st[3] != CPU_UP)
#define ALL_UNUSED (use[0] == 0 && use[1] == 0 && use[2] == 0 && use[3] == 0)
#endif

/*
 * __mcpm_outbound_leave_critical(cluster, state): dmb; store; sev.
 */
inline leave_critical(state)
{
	atomic {
		cluster_st = state;
		assert(state != CLUSTER_DOWN || NONE_UP);
#ifndef MUT_NO_LEAVE_SEV
		SEV
#else
		skip
#endif
	}
}

/*
 * __mcpm_outbound_enter_critical(cpu, cluster): entered := return value.
 */
inline enter_critical(me, entered)
{
	/* Warn inbound CPUs that the cluster is being torn down */
	cluster_st = CLUSTER_GOING_DOWN;
	entered = true;
#ifndef MUT_NO_INBOUND_CHECK
	/* Back out if the inbound cluster is already in the critical region */
	if
	:: inbound_st == INBOUND_COMING_UP -> entered = false
	:: else
	fi;
#endif
	/* for (i = 0; i < MAX_CPUS_PER_CLUSTER; i++), i == cpu skipped */
	j = 0;
	do
	:: !entered || j == NCPUS -> break
	:: else ->
		if
		:: j != me ->
			/* while ((cpustate = cpus[i].cpu) == CPU_GOING_DOWN) wfe(); */
			WAIT_UNTIL(me, s, cpu_st[j], != CPU_GOING_DOWN);
			/* switch (cpustate): CPU_DOWN continues, default aborts */
#ifdef MUT_COMINGUP_IS_DOWN
			entered = (s == CPU_DOWN || s == CPU_COMING_UP)
#else
			entered = (s == CPU_DOWN)
#endif
		:: else
		fi;
		j++
	od;
	if
	:: entered ->
		/* return true: the teardown critical section starts */
		atomic {
			in_teardown = 1;
			assert(in_setup == 0);
			assert(NONE_UP);
#ifdef STRICT_TEARDOWN
			j = 0;
			do
			:: j < NCPUS ->
				assert(j == me || cpu_st[j] == CPU_DOWN);
				j++
			:: else -> break
			od
#endif
		}
	:: else ->
		/* abort: */
		leave_critical(CLUSTER_UP)
	fi
}

proctype cpu(byte me; bit running)
{
	byte downs = 0, hwwakes = 0;
	byte s, j;
	bool going_down, last_man, entered, won;
	byte seen;

	if
	:: running -> goto kernel
	:: else -> goto off
	fi;

kernel:
	/* Running the kernel (CPU_UP).  Policy decision to power down: */
end_kernel:
	downs < DOWNS;
	downs++;

	/* mcpm_cpu_power_down() */
	/* __mcpm_cpu_going_down() */
	cpu_st[me] = CPU_GOING_DOWN;
	/* arch_spin_lock(&mcpm_lock) */
	atomic { mcpm_lock == 0 -> mcpm_lock = 1 };
	/* BUG_ON(__mcpm_cluster_state(cluster) != CLUSTER_UP) */
	assert(cluster_st == CLUSTER_UP);
	atomic {
		use[me]--;
		assert(use[me] == 0 || use[me] == 1);	/* BUG_ON */
		going_down = (use[me] == 0);
		last_man = ALL_UNUSED
	};
	entered = false;
	if
	:: last_man -> enter_critical(me, entered)
	:: else
	fi;
	if
	:: entered ->
		/* cpu/cluster_powerdown_prepare; arch_spin_unlock */
		mcpm_lock = 0;
		/* cluster_cache_disable(): the cluster teardown */
		assert(in_setup == 0 && NONE_UP);
		/* __mcpm_outbound_leave_critical(cluster, CLUSTER_DOWN) */
		atomic { in_teardown = 0; leave_critical(CLUSTER_DOWN) }
	:: else ->
		/* arch_spin_unlock; cpu_cache_disable() */
		mcpm_lock = 0
	fi;
	/* __mcpm_cpu_down(): dmb; store CPU_DOWN; sev */
	atomic { cpu_st[me] = CPU_DOWN; SEV; entered = false; last_man = false; j = 0; s = 0 };
	if
	:: going_down -> going_down = false; goto off	/* wfi() */
	:: else -> goto entry		/* phys_reset(mcpm_entry_point) */
	fi;

off:
	/*
	 * Powered off (or suspended) in CPU_DOWN.  Comes back through
	 * mcpm_entry_point when mcpm_cpu_power_up() asked for it (the
	 * platform's cpu_powerup), or on a wake-up event.  WFI without a
	 * power-off also returns through mcpm_entry_point: that is the
	 * wake-up event case.
	 */
end_off:
	if
	:: use[me] > 0
	:: hwwakes < HWWAKES -> hwwakes++
	fi;

entry:
	/* mcpm_entry_point: signal that this CPU is coming up */
	cpu_st[me] = CPU_COMING_UP;
	/* vlock_trylock(first_man_locks[cluster], cpu) */
#ifdef MUT_NO_FIRST_MAN_LOCK
	won = true;
#else
	vlock_trylock(me, won, seen);
#endif
	seen = 0;
	if
	:: won -> won = false
	:: else -> goto mcpm_setup_wait
	fi;
	/* ldrb cluster; cmp #CLUSTER_UP; bne mcpm_setup */
	atomic { in_fm++; assert(in_fm == 1); s = cluster_st };
	if
	:: s == CLUSTER_UP ->
		/* release the first man lock and skip setup */
#ifdef MUT_LEAK_FIRST_MAN_LOCK
		in_fm--;
#else
		atomic { in_fm--; vlock_unlock() };
#endif
		goto mcpm_setup_complete
	:: else
	fi;

	/* mcpm_setup: */
	inbound_st = INBOUND_COMING_UP;

	/* mcpm_teardown_wait: */
#ifdef MUT_NO_TEARDOWN_WAIT
	s = cluster_st;
#else
	WAIT_UNTIL(me, s, cluster_st, != CLUSTER_GOING_DOWN);
#endif
	/* first_man_setup: skip setup if the outbound gave up (CLUSTER_UP) */
	if
	:: s == CLUSTER_UP
	:: else ->
		/* power_up_setup(1): cluster setup */
		atomic {
			in_setup++;
			assert(in_setup == 1);
			assert(!in_teardown)
		};
		/* strb CLUSTER_UP */
		atomic { in_setup--; cluster_st = CLUSTER_UP; s = CLUSTER_UP }
	fi;
	/* mcpm_setup_leave: */
#ifdef MUT_NO_SETUP_SEV
	inbound_st = INBOUND_NOT_COMING_UP;
#else
	atomic { inbound_st = INBOUND_NOT_COMING_UP; SEV };
#endif
	atomic { in_fm--; vlock_unlock() };
	goto mcpm_setup_complete;

mcpm_setup_wait:
	WAIT_UNTIL(me, s, cluster_st, == CLUSTER_UP);

mcpm_setup_complete:
	/* power_up_setup(0); mark the CPU as up */
	atomic {
		cpu_st[me] = CPU_UP;
		/*
		 * The read that released this CPU saw CLUSTER_UP after it had
		 * stored CPU_COMING_UP, the cluster is not down, and no
		 * teardown is in progress (nor can one start: see the
		 * assertion where in_teardown is set).
		 */
		assert(s == CLUSTER_UP);
		assert(cluster_st != CLUSTER_DOWN && !in_teardown);
#ifdef STRICT_CPU_UP
		/* literal reading: the cluster is CLUSTER_UP right now */
		assert(cluster_st == CLUSTER_UP);
#endif
		s = 0
	};
	/* mcpm_entry_gated -> kernel resume -> mcpm_cpu_powered_up() */
	atomic {
		mcpm_lock == 0 ->
		if
		:: use[me] == 0 -> use[me] = 1
		:: else
		fi
	};
	goto kernel
}

/*
 * mcpm_cpu_power_up(cpu, cluster), called by the rest of the system for a
 * CPU that is down or on its way down (use count 0, or 1 while it is in
 * CPU_GOING_DOWN and has not yet decremented it: "a power_up request raced
 * ahead").  The whole call runs under mcpm_lock and touches only the use
 * counts, so it is one step.
 */
#define REQUEST(i) \
	:: atomic { mcpm_lock == 0 && reqs[i] < REQS && \
		    (use[i] == 0 || (use[i] == 1 && cpu_st[i] == CPU_GOING_DOWN)) -> \
		reqs[i]++; use[i]++; assert(use[i] == 1 || use[i] == 2) }

/*
 * mcpm_cpu_power_up_cancel(cpu, cluster) from the series (one step: it runs
 * under mcpm_lock and touches only the use count after reading the CPU's
 * state).
 */
#if defined(MUT_CANCEL_NO_STATE_CHECK)
#define CANCEL_UNDO(i) if :: use[i] == 1 -> use[i] = 0 :: else fi
#elif defined(MUT_CANCEL_DECREMENT)
#define CANCEL_UNDO(i) if :: cpu_st[i] == CPU_DOWN -> use[i]-- :: else fi
#else
#define CANCEL_UNDO(i) if :: use[i] == 1 && cpu_st[i] == CPU_DOWN -> use[i] = 0 :: else fi
#endif
#ifdef MUT_CANCEL_NO_LOCK
/* without mcpm_lock the check and the store are two steps, and anything
 * (a power-up request, the CPU coming up) may run between them */
#define CANCEL(i) \
	:: cancels[i] < CANCELS -> cancels[i]++; \
		if :: use[i] == 1 && cpu_st[i] == CPU_DOWN -> use[i] = 0 :: else fi; \
		assert(use[i] <= 2)
#else
#define CANCEL(i) \
	:: atomic { mcpm_lock == 0 && cancels[i] < CANCELS -> \
		cancels[i]++; CANCEL_UNDO(i); assert(use[i] <= 2) }
#endif

proctype requester()
{
end_req:
	do
	REQUEST(0)
	CANCEL(0)
#if NCPUS > 1
	REQUEST(1)
	CANCEL(1)
#endif
#if NCPUS > 2
	REQUEST(2)
	CANCEL(2)
#endif
#if NCPUS > 3
	REQUEST(3)
	CANCEL(3)
#endif
	od
}

init
{
	byte i = 0;
	bit up;
	bool any = false;

	atomic {
		do
		:: i < NCPUS ->
			if
			:: up = 1; any = true; cpu_st[i] = CPU_UP; use[i] = 1
			:: up = 0; cpu_st[i] = CPU_DOWN; use[i] = 0
			fi;
			run cpu(i, up);
			i++
		:: else -> break
		od;
		if
		:: any -> cluster_st = CLUSTER_UP
		:: else -> cluster_st = CLUSTER_DOWN
		fi;
		run requester()
	}
}

/* Liveness: every CPU that is coming up eventually reaches CPU_UP. */
#define LIVE(i) [] (cpu_st[i] == CPU_COMING_UP -> <> (cpu_st[i] == CPU_UP))
#if NCPUS == 1
ltl inbound_up { LIVE(0) }
#elif NCPUS == 2
ltl inbound_up { LIVE(0) && LIVE(1) }
#elif NCPUS == 3
ltl inbound_up { LIVE(0) && LIVE(1) && LIVE(2) }
#else
ltl inbound_up { LIVE(0) && LIVE(1) && LIVE(2) && LIVE(3) }
#endif
