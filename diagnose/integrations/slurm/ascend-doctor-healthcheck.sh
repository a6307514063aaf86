#!/bin/bash
# Slurm HealthCheckProgram (or Prolog): a quick ascend-doctor check of this node; on a failure the node is
# drained with the finding as the reason. Slurm kills a health check after 60 s: the check skips the
# network rules, gives each command 5 s and the whole run 50 s.
#   slurm.conf: HealthCheckProgram=/usr/local/sbin/ascend-doctor-healthcheck.sh  HealthCheckInterval=300
# ASCEND_DOCTOR (the executable) and ASCEND_DOCTOR_CHECK_ARGS (extra check options) are optional.
set -u

AD=${ASCEND_DOCTOR:-ascend-doctor}
node=${SLURMD_NODENAME:-$(hostname -s)}
rc=0
# shellcheck disable=SC2086  # the extra options are words
line=$(timeout 50 "$AD" check --format oneline --skip network --timeout 5 --fail-on error \
       ${ASCEND_DOCTOR_CHECK_ARGS:-} 2>/dev/null) || rc=$?
case "$rc" in
  0) exit 0 ;;
  1) scontrol update NodeName="$node" State=DRAIN Reason="ascend-doctor: ${line:0:200}"
     exit 0 ;;
  *) # ascend-doctor itself could not run (2, 3) or ran out of time (124): say so, do not drain
     echo "ascend-doctor health check could not run on $node (exit $rc)" >&2
     exit 0 ;;
esac
