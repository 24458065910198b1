#!/bin/sh
# Smoke version of plan-bench.sh (qemu/bench.sh --smoke): every stage
# once, tiny sizes, one short repetition. The command line still wins.
export CSB_STAGES="${CSB_STAGES:-icount,contention}"
export CSB_SIZES="${CSB_SIZES:-0,4}" CSB_CHUNKS="${CSB_CHUNKS:-3}"
export CSB_REPS="${CSB_REPS:-4}" CSB_SYNCREPS="${CSB_SYNCREPS:-2}"
export CSB_CN="${CSB_CN:-4}" CSB_CMS="${CSB_CMS:-50}" CSB_CREPS="${CSB_CREPS:-1}"
exec sh /chainscope/plan-bench.sh
