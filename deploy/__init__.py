"""Deployment files (gunicorn.conf.py, redis.conf), shipped as package data for the launcher."""
