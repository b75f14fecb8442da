"""The record of a game below the service: stored-event envelopes, canonical JSON, the hash
chain, the redaction rule, the one conversion from a stored event to a domain event, the
record of each accepted command beside its events, and the referee replay that runs those
commands through the rules again.

The service, the replays, the computer players and the benchmarks all read games through
this package; it imports nothing of ours but the rules (domain/), and no Redis or Flask.
"""
