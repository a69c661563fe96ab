"""python3-pmix's PMIxTool against a running pmixrun (python_tool.sh).

usage: pmixtool_attach.py PMIXRUN_PID JOB_NSPACE NPROCS

Connects by pid (PMIX_SERVER_PIDINFO), checks it runs on pmixx, asks for
the namespaces, the job's process table (each process's pid alive and its
state connected) and the job's size, raises the job's release event
(PMIX_EXTERNAL_ERR_BASE - 11, iof_job.c), and finalizes. Prints one
"PASS python <check>" or "FAIL python <check>: why" line per check.
"""
import os
import sys
import warnings

warnings.simplefilter("ignore")  # python3-pmix 4.2.2 uses Thread.setDaemon
from pmix import (PMIxTool, PMIX_SERVER_PIDINFO, PMIX_PID, PMIX_QUERY_NAMESPACES,  # noqa: E402
                  PMIX_QUERY_PROC_TABLE, PMIX_NSPACE, PMIX_STRING, PMIX_JOB_SIZE,
                  PMIX_SUCCESS, PMIX_RANGE_CUSTOM, PMIX_EVENT_CUSTOM_RANGE, PMIX_PROC,
                  PMIX_RANK_WILDCARD)

# pmix_common.h values the module does not export
PMIX_PROC_STATE_CONNECTED = 6
PMIX_EXTERNAL_ERR_BASE = -3000

failures = 0


def report(name, ok, why=""):
    global failures
    if ok:
        print("PASS python %s" % name)
    else:
        print("FAIL python %s: %s" % (name, why))
        failures += 1
    sys.stdout.flush()


def main():
    pid, nspace, nprocs = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    tool = PMIxTool()
    version = tool.get_version()
    report("library", b"pmixx" in version, version)
    rc, me = tool.init([{'key': PMIX_SERVER_PIDINFO, 'value': pid, 'val_type': PMIX_PID}])
    report("init", rc == PMIX_SUCCESS and me.get('nspace', '') != '', "rc %d %s" % (rc, me))
    if rc != PMIX_SUCCESS:
        return 1

    rc, info = tool.query([{'keys': [PMIX_QUERY_NAMESPACES], 'qualifiers': []}])
    names = info[0]['value'].split(',') if rc == PMIX_SUCCESS and info else []
    report("namespaces", nspace in names, "rc %d %s" % (rc, info))

    job = [{'key': PMIX_NSPACE, 'value': nspace, 'val_type': PMIX_STRING}]
    rc, info = tool.query([{'keys': [PMIX_QUERY_PROC_TABLE], 'qualifiers': job}])
    procs = info[0]['value']['array'] if rc == PMIX_SUCCESS and info else []
    alive = len(procs) == nprocs
    for p in procs:
        try:
            os.kill(p['pid'], 0)
        except OSError:
            alive = False
        alive = alive and p['state'] == PMIX_PROC_STATE_CONNECTED
    report("proc_table", alive, "rc %d %s" % (rc, procs))

    rc, info = tool.query([{'keys': [PMIX_JOB_SIZE], 'qualifiers': job}])
    size = info[0]['value'] if rc == PMIX_SUCCESS and info else None
    report("job_size", size == nprocs, "rc %d %s" % (rc, info))

    target = {'nspace': nspace, 'rank': PMIX_RANK_WILDCARD}
    rc = tool.notify_event(PMIX_EXTERNAL_ERR_BASE - 11, me, PMIX_RANGE_CUSTOM,
                           [{'key': PMIX_EVENT_CUSTOM_RANGE, 'value': target,
                             'val_type': PMIX_PROC}])
    report("release", rc == PMIX_SUCCESS, "rc %d" % rc)
    rc = tool.finalize()
    report("finalize", rc == PMIX_SUCCESS, "rc %d" % rc)
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
