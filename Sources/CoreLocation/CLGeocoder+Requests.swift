import Dispatch
import LocationCore
import LocationPlaces
import Logging

// How a request travels: submitted (replacing a pending one), looked up on the geocoder's queue,
// delivered exactly once — its outcome, or `.geocodeCanceled` — by whoever takes it out of the
// pending slot first.
extension CLGeocoder {
    /// Starts `request`, cancelling the pending one.
    func submit(_ request: GeocodeRequest) {
        let replaced = pending.withLock { slot in defer { slot = request }; return slot }
        if let replaced { deliverCancellation(of: replaced) }
        Self.queue.async { [self] in
            let outcome = lookUp(request)
            deliver(outcome, of: request)
        }
    }

    /// Cancels `request` if it is still pending (an awaiting task was cancelled).
    func cancel(_ request: GeocodeRequest) {
        if take(request) { deliverCancellation(of: request) }
    }

    /// The placemarks for the request, or the error to report. Runs on the geocoder's queue.
    private func lookUp(_ request: GeocodeRequest) -> Result<[CLPlacemark], CLError> {
        guard request.query.isAnswerable else { return .failure(CLError(.geocodeFoundNoResult)) }
        switch backend() {
        case .failure(let error):
            logger.error("geocoding is unavailable: \(error)")
            return .failure(CLError(.network, userInfo: [NSLocalizedDescriptionKey: error.description]))
        case .success(let database):
            let places = request.query.places(in: database)
            guard !places.isEmpty else { return .failure(CLError(.geocodeFoundNoResult)) }
            let now = Date()
            return .success(places.map { CLPlacemark(place: $0, locale: request.locale, timestamp: now) })
        }
    }

    /// Hands the outcome over unless the request was cancelled (or replaced) meanwhile.
    private func deliver(_ outcome: Result<[CLPlacemark], CLError>, of request: GeocodeRequest) {
        switch request.delivery {
        case .direct(let resume):
            if take(request) { resume(outcome) }
        case .mainQueue:
            // Still pending (isGeocoding) until the handler is about to run on the main thread.
            DispatchQueue.main.async { [self] in
                guard take(request), case .mainQueue(let handler) = request.delivery else { return }
                switch outcome {
                case .success(let placemarks): handler(placemarks, nil)
                case .failure(let error): handler(nil, error)
                }
            }
        }
    }

    /// Tells a request that is no longer pending that it was cancelled.
    func deliverCancellation(of request: GeocodeRequest) {
        switch request.delivery {
        case .direct(let resume):
            resume(.failure(CLError(.geocodeCanceled)))
        case .mainQueue:
            DispatchQueue.main.async {
                guard case .mainQueue(let handler) = request.delivery else { return }
                handler(nil, CLError(.geocodeCanceled))
            }
        }
    }

    /// Takes `request` out of the pending slot; `false` when it is no longer there.
    func take(_ request: GeocodeRequest) -> Bool {
        pending.withLock { slot in
            guard slot === request else { return false }
            slot = nil
            return true
        }
    }

    /// The `async` forms: one request whose outcome resumes the task; cancelling the task cancels it.
    func placemarks(for query: GeocodeQuery, locale: Locale?) async throws -> [CLPlacemark] {
        let started = Locked<GeocodeRequest?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[CLPlacemark], any Error>) in
                let request = GeocodeRequest(query: query, locale: locale, delivery: .direct { outcome in
                    continuation.resume(with: outcome.mapError { $0 as any Error })
                })
                started.withLock { $0 = request }
                submit(request)
                // Cancelled before `started` was set: the handler below found nothing to cancel.
                if Task.isCancelled { cancel(request) }
            }
        } onCancel: {
            if let request = started.withLock({ $0 }) { cancel(request) }
        }
    }
}
