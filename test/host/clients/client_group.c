/*
 * Process groups end to end (test/integration/group.sh): construct and
 * destruct, invite and join, leave, members and leaders that die.
 *
 *   client_group [basic]   every rank (both nodes) builds "tg-all" over the
 *                          job with a context id, then "tg-even"/"tg-odd" at
 *                          the same time; members' data, group ranks in
 *                          gets, a fence and an event over the group id,
 *                          the group's live keys and queries; destruct
 *   client_group timeout   rank 1 stays away: PMIX_TIMEOUT fails rank 0's
 *                          construct, with PMIX_GROUP_OPTIONAL it completes
 *                          partially
 *   client_group invite    rank 0 invites the job, the last rank declines
 *   client_group invite-silent  the last rank never answers; rank 0's
 *                          invite has PMIX_TIMEOUT + PMIX_GROUP_OPTIONAL
 *   client_group leave     the last rank leaves a group of the job
 *   client_group member-dies    (--kill-rank 1) construct with
 *                          PMIX_GROUP_NOTIFY_TERMINATION: the others see
 *                          PMIX_GROUP_MEMBER_FAILED and complete partially
 *   client_group member-dies-plain  (--kill-rank 1) without it: the
 *                          construct fails with PMIX_ERR_PROC_TERM_WO_SYNC
 *   client_group leader-dies    (--kill-rank 0) the declared leader dies;
 *                          rank 1 claims leadership from its
 *                          PMIX_GROUP_LEADER_FAILED handler, every survivor
 *                          sees PMIX_GROUP_LEADER_SELECTED naming it
 *
 * Public pmix.h only. pmixx behaviour OpenPMIx 4.2.2 lacks is skipped there
 * (OnOpenPmix).
 */
#include "test/host/clients/client_util.h"

#include <pthread.h>

#define TEST_EVENT (PMIX_EXTERNAL_ERR_BASE - 71)
#define NEVENTS 8

static uint32_t nprocs;

/* --- events -------------------------------------------------------------- */

typedef struct {
    pmix_status_t code;
    pmix_proc_t source;
    pmix_proc_t affected;
    char grp[PMIX_MAX_NSLEN + 1];
    int count;
} Seen;

static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static Seen seen[NEVENTS];
static int claim_leadership;  /* leader-dies: return PMIX_GROUP_LEADER from LEADER_FAILED */
static int decline;           /* invite: answer with PMIX_GROUP_DECLINE */
static int stay_silent;       /* invite-silent: do not answer */

static Seen *SlotOf(pmix_status_t code) {
    for (int i = 0; i < NEVENTS; ++i)
        if (seen[i].code == code || seen[i].code == 0) {
            seen[i].code = code;
            return &seen[i];
        }
    return NULL;
}

static void JoinDone(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                     pmix_release_cbfunc_t release_fn, void *release_cbdata) {
    (void)info, (void)ninfo, (void)cbdata;
    Note("join callback: %s", PMIx_Error_string(status));
    if (release_fn) release_fn(release_cbdata);
}

static void OnEvent(size_t id, pmix_status_t status, const pmix_proc_t *source,
                    pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                    pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    (void)id, (void)results, (void)nresults;
    pthread_mutex_lock(&seen_lock);
    Seen *s = SlotOf(status);
    if (s) {
        s->count++;
        s->source = *source;
        for (size_t i = 0; i < ninfo; ++i) {
            if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC))
                s->affected = *info[i].value.data.proc;
            if (PMIX_CHECK_KEY(&info[i], PMIX_GROUP_ID))
                snprintf(s->grp, sizeof s->grp, "%s", info[i].value.data.string);
        }
    }
    pthread_mutex_unlock(&seen_lock);
    Note("event %s from %s:%u", PMIx_Error_string(status), source->nspace, source->rank);
    if (status == PMIX_GROUP_INVITED && !PMIX_CHECK_PROCID(source, &client_me) && !stay_silent) {
        char grp[PMIX_MAX_NSLEN + 1] = {0};
        for (size_t i = 0; i < ninfo; ++i)
            if (PMIX_CHECK_KEY(&info[i], PMIX_GROUP_ID))
                snprintf(grp, sizeof grp, "%s", info[i].value.data.string);
        pmix_status_t rc = PMIx_Group_join_nb(grp, source,
                                              decline ? PMIX_GROUP_DECLINE : PMIX_GROUP_ACCEPT,
                                              NULL, 0, JoinDone, NULL);
        if (rc != PMIX_SUCCESS) Fail("PMIx_Group_join_nb: %s", PMIx_Error_string(rc));
    }
    if (status == PMIX_GROUP_LEADER_FAILED && claim_leadership && cbfunc) {
        pmix_info_t *claim;
        PMIX_INFO_CREATE(claim, 1);
        PMIX_INFO_LOAD(&claim[0], PMIX_GROUP_LEADER, NULL, PMIX_BOOL);
        cbfunc(PMIX_SUCCESS, claim, 1, NULL, NULL, cbdata);  /* results copied at once */
        PMIX_INFO_FREE(claim, 1);
        return;
    }
    if (cbfunc) cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

static void RegisterEvents(void) {
    pmix_status_t codes[] = {PMIX_GROUP_INVITED,          PMIX_GROUP_LEFT,
                             PMIX_GROUP_MEMBER_FAILED,    PMIX_GROUP_INVITE_DECLINED,
                             PMIX_GROUP_INVITE_FAILED,    PMIX_GROUP_CONSTRUCT_COMPLETE,
                             PMIX_GROUP_LEADER_FAILED,    PMIX_GROUP_LEADER_SELECTED,
                             TEST_EVENT};
    int rc = PMIx_Register_event_handler(codes, sizeof codes / sizeof codes[0], NULL, 0, OnEvent,
                                         NULL, NULL);
    CHECK(rc >= 0, "PMIx_Register_event_handler: %s", PMIx_Error_string(rc));
}

/* Waits (at most 20 s) until `code` was seen `count` times; its record. */
static Seen WaitSeen(pmix_status_t code, int count) {
    const struct timespec tick = {0, 5000000L};
    Seen copy;
    for (int i = 0; i < 4000; ++i) {
        pthread_mutex_lock(&seen_lock);
        Seen *s = SlotOf(code);
        copy = s ? *s : (Seen){0};
        pthread_mutex_unlock(&seen_lock);
        if (copy.count >= count) return copy;
        nanosleep(&tick, NULL);
    }
    Fail("event %s not seen %d time(s) within 20 s", PMIx_Error_string(code), count);
    return copy;
}

static int SeenCount(pmix_status_t code) {
    pthread_mutex_lock(&seen_lock);
    Seen *s = SlotOf(code);
    int n = s ? s->count : 0;
    pthread_mutex_unlock(&seen_lock);
    return n;
}

/* --- helpers ------------------------------------------------------------- */

static const pmix_info_t *Find(const pmix_info_t *info, size_t n, const char *key) {
    for (size_t i = 0; i < n; ++i)
        if (PMIX_CHECK_KEY(&info[i], key)) return &info[i];
    return NULL;
}

/* The membership of a results array: checks it lists `want` (n procs). */
static void CheckMembersAs(const char *key, const pmix_info_t *results, size_t nresults,
                           const pmix_proc_t *want, size_t n, const char *what) {
    const pmix_info_t *m = Find(results, nresults, key);
    CHECK(m && m->value.type == PMIX_DATA_ARRAY && m->value.data.darray->type == PMIX_PROC,
          "%s: no %s in the results", what, key);
    const pmix_proc_t *got = m->value.data.darray->array;
    CHECK(m->value.data.darray->size == n, "%s: %zu members, want %zu", what,
          m->value.data.darray->size, n);
    for (size_t i = 0; i < n; ++i)
        CHECK(PMIX_CHECK_PROCID(&got[i], &want[i]), "%s: member %zu is %s:%u, want %s:%u", what,
              i, got[i].nspace, got[i].rank, want[i].nspace, want[i].rank);
}

static void CheckMembers(const pmix_info_t *results, size_t nresults, const pmix_proc_t *want,
                         size_t n, const char *what) {
    CheckMembersAs(PMIX_GROUP_MEMBERSHIP, results, nresults, want, n, what);
}

static size_t ContextId(const pmix_info_t *results, size_t nresults, const char *what) {
    CHECK(nresults > 0 && PMIX_CHECK_KEY(&results[0], PMIX_GROUP_CONTEXT_ID),
          "%s: the first result is not PMIX_GROUP_CONTEXT_ID", what);
    size_t id = 0;
    pmix_status_t rc;
    PMIX_VALUE_GET_NUMBER(rc, &results[0].value, id, size_t);
    CHECK_RC(rc, PMIX_SUCCESS, what);
    return id;
}

static pmix_proc_t *Job(void) {
    pmix_proc_t *job = calloc(nprocs, sizeof *job);
    CHECK(job != NULL, "calloc");
    for (uint32_t r = 0; r < nprocs; ++r) job[r] = ProcOf(r);
    return job;
}

static uint64_t GetU64Of(const pmix_proc_t *p, const char *key, int optional) {
    pmix_info_t opt;
    PMIX_INFO_LOAD(&opt, PMIX_OPTIONAL, NULL, PMIX_BOOL);
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(p, key, optional ? &opt : NULL, optional ? 1 : 0, &v);
    PMIX_INFO_DESTRUCT(&opt);
    if (rc != PMIX_SUCCESS)
        Fail("PMIx_Get(%s:%u, %s): %s", p->nspace, p->rank, key, PMIx_Error_string(rc));
    CHECK(v->type == PMIX_UINT64, "PMIx_Get(%s:%u, %s): type %s", p->nspace, p->rank, key,
          PMIx_Data_type_string(v->type));
    uint64_t x = v->data.uint64;
    PMIX_VALUE_RELEASE(v);
    return x;
}

static void PutU64(const char *key, uint64_t x) {
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, &x, PMIX_UINT64);
    CHECK_RC(PMIx_Put(PMIX_GLOBAL, key, &v), PMIX_SUCCESS, "PMIx_Put");
    PMIX_VALUE_DESTRUCT(&v);
}

static void JobFence(void) {
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "job fence");
}

/* --- modes --------------------------------------------------------------- */

/* The data every member sees after construct, without a commit or fence. */
static void CheckMembersData(const char *grp) {
    for (uint32_t r = 0; r < nprocs; ++r) {
        if (r == client_me.rank) continue;
        pmix_proc_t p = ProcOf(r);
        uint64_t x = GetU64Of(&p, "tg.key", 1);
        CHECK(x == 100 + r, "tg.key of rank %u: %llu", r, (unsigned long long)x);
        uint64_t info = GetU64Of(&p, "tg.info", 1);
        CHECK(info == 1000 + r, "tg.info of rank %u: %llu", r, (unsigned long long)info);
        pmix_proc_t by_group;
        PMIX_LOAD_PROCID(&by_group, grp, r);  /* group rank r is job rank r here */
        x = GetU64Of(&by_group, "tg.key", 0);
        CHECK(x == 100 + r, "tg.key of group rank %u: %llu", r, (unsigned long long)x);
    }
}

static void CheckLiveKeysAndQueries(const char *grp, size_t cid) {
    if (OnOpenPmix()) return;  /* pmixx: live keys and the library's group queries */
    pmix_value_t *v = NULL;
    pmix_status_t rc;
    CHECK_RC(PMIx_Get(&client_me, PMIX_GROUP_NAMES, NULL, 0, &v), PMIX_SUCCESS,
             "PMIx_Get(PMIX_GROUP_NAMES)");
    CHECK(v->type == PMIX_DATA_ARRAY && v->data.darray->type == PMIX_STRING,
          "PMIX_GROUP_NAMES: not an array of strings");
    int found = 0;
    for (size_t i = 0; i < v->data.darray->size; ++i)
        found |= strcmp(((char **)v->data.darray->array)[i], grp) == 0;
    CHECK(found, "PMIX_GROUP_NAMES lacks %s", grp);
    PMIX_VALUE_RELEASE(v);
    pmix_proc_t whole;
    PMIX_LOAD_PROCID(&whole, grp, PMIX_RANK_WILDCARD);
    CHECK_RC(PMIx_Get(&whole, PMIX_GROUP_CONTEXT_ID, NULL, 0, &v), PMIX_SUCCESS,
             "PMIx_Get({grp, *}, PMIX_GROUP_CONTEXT_ID)");
    size_t got = 0;
    PMIX_VALUE_GET_NUMBER(rc, v, got, size_t);
    CHECK_RC(rc, PMIX_SUCCESS, "context id value");
    CHECK(got == cid, "group's context id %zu, want %zu", got, cid);
    PMIX_VALUE_RELEASE(v);
    pmix_query_t q;
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_GROUP_MEMBERSHIP);
    CHECK_RC(rc, PMIX_SUCCESS, "PMIX_ARGV_APPEND");
    PMIX_QUERY_QUALIFIERS_CREATE(&q, 1);
    PMIX_INFO_LOAD(&q.qualifiers[0], PMIX_GROUP_ID, grp, PMIX_STRING);
    pmix_info_t *res = NULL;
    size_t nres = 0;
    CHECK_RC(PMIx_Query_info(&q, 1, &res, &nres), PMIX_SUCCESS, "query group membership");
    pmix_proc_t *job = Job();
    CheckMembersAs(PMIX_QUERY_GROUP_MEMBERSHIP, res, nres, job, nprocs, "the membership query");
    free(job);
    PMIX_INFO_FREE(res, nres);
    PMIX_QUERY_DESTRUCT(&q);
}

static void ModeBasic(void) {
    PutU64("tg.key", 100 + client_me.rank);  /* not committed: travels with the group */
    JobFence();  /* every handler registered before rank 0 raises TEST_EVENT */
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, client_me.nspace, PMIX_RANK_WILDCARD);
    pmix_info_t dirs[3];
    PMIX_INFO_LOAD(&dirs[0], PMIX_GROUP_ASSIGN_CONTEXT_ID, NULL, PMIX_BOOL);
    pmix_info_t mine;
    uint64_t lcid = 1000 + client_me.rank;
    PMIX_INFO_LOAD(&mine, "tg.info", &lcid, PMIX_UINT64);
    pmix_data_array_t array = {PMIX_INFO, 1, &mine};
    PMIX_INFO_LOAD(&dirs[1], PMIX_GROUP_INFO, &array, PMIX_DATA_ARRAY);
    /* a directive of its own: the host must see every local member's */
    char own[PMIX_MAX_KEYLEN + 1];
    snprintf(own, sizeof own, "tg.dir.%u", client_me.rank);
    PMIX_INFO_LOAD(&dirs[2], own, NULL, PMIX_BOOL);
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    CHECK_RC(PMIx_Group_construct("tg-all", &all, 1, dirs, 3, &results, &nresults), PMIX_SUCCESS,
             "construct tg-all");
    /* dirs[1] holds its own copy of the array (LSan found it leaked) */
    for (int i = 0; i < 3; ++i) PMIX_INFO_DESTRUCT(&dirs[i]);
    PMIX_INFO_DESTRUCT(&mine);
    size_t cid = ContextId(results, nresults, "construct tg-all");
    pmix_proc_t *job = Job();
    /* OpenPMIx 4.2.2 returns the context id only */
    if (!OnOpenPmix()) CheckMembers(results, nresults, job, nprocs, "construct tg-all");
    PMIX_INFO_FREE(results, nresults);
    Note("tg-all: context id %zu", cid);
    CheckMembersData("tg-all");
    CheckLiveKeysAndQueries("tg-all", cid);

    /* two groups under construction at the same time over other sets */
    const char *half = client_me.rank % 2 == 0 ? "tg-even" : "tg-odd";
    pmix_proc_t *mates = calloc(nprocs, sizeof *mates);
    size_t nmates = 0;
    for (uint32_t r = client_me.rank % 2; r < nprocs; r += 2) mates[nmates++] = ProcOf(r);
    CHECK_RC(PMIx_Group_construct(half, mates, nmates, NULL, 0, &results, &nresults),
             PMIX_SUCCESS, half);
    if (!OnOpenPmix()) CheckMembers(results, nresults, mates, nmates, half);
    PMIX_INFO_FREE(results, nresults);

    /* a fence and an event over the group id */
    pmix_proc_t grp;
    PMIX_LOAD_PROCID(&grp, "tg-all", PMIX_RANK_WILDCARD);
    CHECK_RC(PMIx_Fence(&grp, 1, NULL, 0), PMIX_SUCCESS, "fence over {tg-all, *}");
    if (client_me.rank == 0) {
        pmix_info_t range;
        pmix_data_array_t targets = {PMIX_PROC, 1, &grp};
        PMIX_INFO_LOAD(&range, PMIX_EVENT_CUSTOM_RANGE, &targets, PMIX_DATA_ARRAY);
        CHECK_RC(PMIx_Notify_event(TEST_EVENT, &client_me, PMIX_RANGE_CUSTOM, &range, 1, NULL, NULL),
                 PMIX_SUCCESS, "notify {tg-all, *}");
        PMIX_INFO_DESTRUCT(&range);
    } else {
        WaitSeen(TEST_EVENT, 1);
    }
    CHECK_RC(PMIx_Group_destruct(half, NULL, 0), PMIX_SUCCESS, "destruct half");
    CHECK_RC(PMIx_Group_destruct("tg-all", NULL, 0), PMIX_SUCCESS, "destruct tg-all");
    pmix_value_t *v = NULL;
    pmix_proc_t first;
    PMIX_LOAD_PROCID(&first, "tg-all", 0);
    pmix_info_t opt;
    PMIX_INFO_LOAD(&opt, PMIX_OPTIONAL, NULL, PMIX_BOOL);
    CHECK(PMIx_Get(&first, "tg.key", &opt, 1, &v) != PMIX_SUCCESS,
          "a get by group rank still works after destruct");
    CHECK_RC(PMIx_Group_destruct("tg-all", NULL, 0), PMIX_ERR_NOT_FOUND, "destruct twice");

    /* refusals */
    pmix_proc_t others[1] = {ProcOf((client_me.rank + 1) % nprocs)};
    if (nprocs > 1)
        CHECK_RC(PMIx_Group_construct("tg-without-me", others, 1, NULL, 0, &results, &nresults),
                 PMIX_ERR_BAD_PARAM, "construct without the caller");
    CHECK_RC(PMIx_Group_construct("", job, nprocs, NULL, 0, &results, &nresults),
             PMIX_ERR_BAD_PARAM, "construct with an empty name");
    CHECK_RC(PMIx_Group_construct("tg-x", NULL, 0, NULL, 0, &results, &nresults),
             PMIX_ERR_BAD_PARAM, "construct without procs");
    free(mates);
    free(job);
    JobFence();
}

static void ModeTimeout(void) {
    CHECK(nprocs >= 2, "timeout needs 2 ranks");
    pmix_proc_t pair[2] = {ProcOf(0), ProcOf(1)};
    pmix_info_t dirs[2];
    int sec = 1;
    PMIX_INFO_LOAD(&dirs[0], PMIX_TIMEOUT, &sec, PMIX_INT);
    PMIX_INFO_LOAD(&dirs[1], PMIX_GROUP_OPTIONAL, NULL, PMIX_BOOL);
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    if (client_me.rank == 0) {
        CHECK_RC(PMIx_Group_construct("tg-late", pair, 2, dirs, 1, &results, &nresults),
                 PMIX_ERR_TIMEOUT, "construct with an absent member, PMIX_TIMEOUT 1");
        CHECK_RC(PMIx_Group_construct("tg-opt", pair, 2, dirs, 2, &results, &nresults),
                 PMIX_ERR_PARTIAL_SUCCESS, "optional construct with an absent member");
        CheckMembers(results, nresults, pair, 1, "optional construct");
        PMIX_INFO_FREE(results, nresults);
        CHECK_RC(PMIx_Group_destruct("tg-opt", NULL, 0), PMIX_SUCCESS, "destruct tg-opt");
    }
    JobFence();
}

static void ModeInvite(int silent) {
    CHECK(nprocs >= 3, "invite needs 3 ranks");
    uint32_t last = nprocs - 1;
    decline = !silent && client_me.rank == last;
    stay_silent = silent && client_me.rank == last;
    JobFence();  /* handlers registered everywhere */
    pmix_proc_t *job = Job();
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    if (client_me.rank == 0) {
        pmix_info_t dirs[2];
        int sec = 2;
        PMIX_INFO_LOAD(&dirs[0], PMIX_TIMEOUT, &sec, PMIX_INT);
        PMIX_INFO_LOAD(&dirs[1], PMIX_GROUP_OPTIONAL, NULL, PMIX_BOOL);
        CHECK_RC(PMIx_Group_invite("tg-inv", job, nprocs, dirs, silent ? 2 : 0, &results,
                                   &nresults),
                 PMIX_SUCCESS, "invite");
        CheckMembers(results, nresults, job, nprocs - 1, "invite");
        PMIX_INFO_FREE(results, nresults);
        Seen s = WaitSeen(silent ? PMIX_GROUP_INVITE_FAILED : PMIX_GROUP_INVITE_DECLINED, 1);
        CHECK(s.source.rank == last || s.affected.rank == last, "the answer was about rank %u",
              s.affected.rank);
    }
    if (client_me.rank != last) {
        Seen s = WaitSeen(PMIX_GROUP_CONSTRUCT_COMPLETE, 1);
        CHECK(strcmp(s.grp, "tg-inv") == 0, "CONSTRUCT_COMPLETE for %s", s.grp);
        pmix_proc_t grp;
        PMIX_LOAD_PROCID(&grp, "tg-inv", PMIX_RANK_WILDCARD);
        CHECK_RC(PMIx_Fence(&grp, 1, NULL, 0), PMIX_SUCCESS, "fence over the invited group");
        CHECK_RC(PMIx_Group_destruct("tg-inv", NULL, 0), PMIX_SUCCESS, "destruct tg-inv");
    } else {
        CHECK(SeenCount(PMIX_GROUP_CONSTRUCT_COMPLETE) == 0,
              "the process that did not join saw CONSTRUCT_COMPLETE");
    }
    free(job);
    JobFence();
}

static void ModeLeave(void) {
    CHECK(nprocs >= 2, "leave needs 2 ranks");
    uint32_t last = nprocs - 1;
    pmix_proc_t *job = Job();
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    CHECK_RC(PMIx_Group_construct("tg-leave", job, nprocs, NULL, 0, &results, &nresults),
             PMIX_SUCCESS, "construct tg-leave");
    PMIX_INFO_FREE(results, nresults);
    JobFence();
    if (client_me.rank == last) {
        CHECK_RC(PMIx_Group_leave("tg-leave", NULL, 0), PMIX_SUCCESS, "leave");
        CHECK_RC(PMIx_Group_leave("tg-leave", NULL, 0), PMIX_ERR_NOT_FOUND, "leave twice");
    } else {
        Seen s = WaitSeen(PMIX_GROUP_LEFT, 1);
        CHECK(s.affected.rank == last, "PMIX_GROUP_LEFT names rank %u, want %u", s.affected.rank,
              last);
        pmix_proc_t grp;
        PMIX_LOAD_PROCID(&grp, "tg-leave", PMIX_RANK_WILDCARD);
        CHECK_RC(PMIx_Fence(&grp, 1, NULL, 0), PMIX_SUCCESS, "fence over the rest");
        CHECK_RC(PMIx_Group_destruct("tg-leave", NULL, 0), PMIX_SUCCESS, "destruct the rest");
    }
    free(job);
    JobFence();
}

/* rank `victim` waits to be killed; the others construct over the job */
static void ModeDies(uint32_t victim, int notify, int leader) {
    CHECK(nprocs >= 3, "needs 3 ranks");
    JobFence();
    pmix_proc_t *job = Job();
    pmix_info_t dirs[2];
    size_t ndirs = 0;
    if (notify) PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_GROUP_NOTIFY_TERMINATION, NULL, PMIX_BOOL);
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    if (client_me.rank == victim) {
        if (leader) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_GROUP_LEADER, NULL, PMIX_BOOL);
            PMIx_Group_construct_nb("tg-die", job, nprocs, dirs, ndirs, NULL, NULL);
            /* Nothing says when the request left: give the progress
             * thread time to send it before this process stops. */
            usleep(300 * 1000);
        }
        AwaitTheKill();
    }
    if (leader) {
        claim_leadership = client_me.rank == 1;
        WaitSeen(PMIX_GROUP_LEADER_FAILED, 1);
        Seen s = WaitSeen(PMIX_GROUP_LEADER_SELECTED, 1);
        CHECK(s.source.rank == 1, "LEADER_SELECTED names rank %u, want 1", s.source.rank);
    }
    pmix_status_t rc = PMIx_Group_construct("tg-die", job, nprocs, dirs, ndirs, &results, &nresults);
    if (!notify && !leader) {
        CHECK_RC(rc, PMIX_ERR_PROC_TERM_WO_SYNC, "construct with a dead member");
    } else {
        CHECK_RC(rc, PMIX_ERR_PARTIAL_SUCCESS, "construct with a dead member");
        pmix_proc_t *alive = calloc(nprocs, sizeof *alive);
        size_t n = 0;
        for (uint32_t r = 0; r < nprocs; ++r)
            if (r != victim) alive[n++] = ProcOf(r);
        CheckMembers(results, nresults, alive, n, "construct without the dead member");
        free(alive);
        PMIX_INFO_FREE(results, nresults);
        if (notify && !leader) {
            Seen s = WaitSeen(PMIX_GROUP_MEMBER_FAILED, 1);
            CHECK(s.affected.rank == victim, "MEMBER_FAILED names rank %u", s.affected.rank);
        }
        CHECK_RC(PMIx_Group_destruct("tg-die", NULL, 0), PMIX_SUCCESS, "destruct survivors");
    }
    free(job);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "basic";
    ClientInit();
    nprocs = GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    RegisterEvents();
    if (strcmp(mode, "basic") == 0) ModeBasic();
    else if (strcmp(mode, "timeout") == 0) ModeTimeout();
    else if (strcmp(mode, "invite") == 0) ModeInvite(0);
    else if (strcmp(mode, "invite-silent") == 0) ModeInvite(1);
    else if (strcmp(mode, "leave") == 0) ModeLeave();
    else if (strcmp(mode, "member-dies") == 0) ModeDies(1, 1, 0);
    else if (strcmp(mode, "member-dies-plain") == 0) ModeDies(1, 0, 0);
    else if (strcmp(mode, "leader-dies") == 0) ModeDies(0, 1, 1);
    else Fail("unknown mode %s", mode);
    ClientFinalize();
    return 0;
}
