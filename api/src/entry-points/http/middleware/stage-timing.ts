import { NextFunction, Request, RequestHandler, Response } from 'express';

/** Set on res.locals by request-metrics.ts: records one stage's seconds for /metrics. */
export type StageRecorder = (stage: string, seconds: number) => void;

/**
 * Times one middleware or handler of a request: from its call until it passes the request on or
 * the response is sent, whichever comes first. `stage` is a fixed name (never from the request),
 * so the series stay bounded; a tail that sits in one stage (authentication's reads, the create's
 * writes) shows apart from the others.
 */
export function timeStage(stage: string, handler: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const record = res.locals.recordStage as StageRecorder | undefined;
    if (!record) return handler(req, res, next);
    const started = process.hrtime.bigint();
    let recorded = false;
    const finish = () => {
      if (recorded) return;
      recorded = true;
      res.off('finish', finish);
      record(stage, Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.once('finish', finish);
    return handler(req, res, (error?: unknown) => {
      finish();
      next(error);
    });
  };
}

/**
 * Times awaited steps inside a handler as stages of their own (e.g. the create's store writes
 * apart from its queue writes); each call records its own seconds, so steps that overlap each
 * count in full. Without metrics the work just runs.
 */
export function stageClock(res: Response): <T>(stage: string, work: () => Promise<T>) => Promise<T> {
  const record = res.locals.recordStage as StageRecorder | undefined;
  return (stage, work) => {
    if (!record) return work();
    const started = process.hrtime.bigint();
    return work().finally(() => record(stage, Number(process.hrtime.bigint() - started) / 1e9));
  };
}
