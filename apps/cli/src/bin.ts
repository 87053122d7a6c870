#!/usr/bin/env node
import { exitQuietlyOnClosedOutput } from './exit.ts'
import { reportUncaught, runCli } from './program.ts'

exitQuietlyOnClosedOutput()
process.on('uncaughtException', reportUncaught)
process.on('unhandledRejection', reportUncaught)
process.exitCode = await runCli(process.argv)
