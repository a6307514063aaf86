#!/bin/bash
# A snapshot out of every ascend-doctor DaemonSet pod (k8s/ascend-doctor-daemonset.yaml), then the fleet
# check over them.   diagnose/integrations/k8s/collect-fleet.sh [DIR] [fleet options...]
# KUBECTL, NAMESPACE (default kube-system) and ASCEND_DOCTOR (the local executable) are optional.
set -euo pipefail

dir=${1:-fleet}
shift || true
KUBECTL=${KUBECTL:-kubectl}
NS=${NAMESPACE:-kube-system}
AD=${ASCEND_DOCTOR:-ascend-doctor}
mkdir -p "$dir"
chmod 700 "$dir"
umask 077
nodes=()
while read -r pod node; do
  [ -n "$pod" ] || continue
  nodes+=("$node")
  if ! "$KUBECTL" -n "$NS" exec "$pod" -- ascend-doctor snapshot --node "$node" -o - > "$dir/$node.json.part"; then
    echo "collect-fleet: no snapshot from $node ($pod)" >&2
    rm -f "$dir/$node.json.part"
    continue
  fi
  mv "$dir/$node.json.part" "$dir/$node.json"
done < <("$KUBECTL" -n "$NS" get pods -l app.kubernetes.io/name=ascend-doctor \
           -o jsonpath='{range .items[*]}{.metadata.name} {.spec.nodeName}{"\n"}{end}')
[ "${#nodes[@]}" -gt 0 ] || { echo "collect-fleet: no ascend-doctor pod found in $NS" >&2; exit 2; }
expect=$(IFS=,; echo "${nodes[*]}")
exec "$AD" fleet "$dir" --expect-nodes "$expect" "$@"
