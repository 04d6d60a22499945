#!/bin/sh
# First process of a fresh network namespace: bring loopback up, then become the loopback forwarder.
# Usage: netns-slot.sh <ip> <forwarder> [forwarder args...]
set -eu
ip=$1
shift
"$ip" link set lo up
exec "$@"
