import Foundation
import LocationPlaces
import LocationPolicy
import Logging

/// The approximate regions of this device, as the in-process service and `locationd` use them.
public enum DeviceApproximateRegions {
    /// Regions of the places database laid out by the seed derived from `stateDirectory`'s sealing
    /// key. When either cannot be had the plain grid is used — it knows no borders and its layout is
    /// public, so this is logged as an error, never silent.
    public static func load(stateDirectory: URL, logger: Logger) -> any ApproximateRegions {
        let seed: ApproximateRegionsSeed
        do {
            seed = try ApproximateRegionsSeed.load(stateDirectory: stateDirectory)
        } catch {
            logger.error("approximate location falls back to a public grid: the layout's secret cannot be loaded",
                         metadata: ["error": "\(error)"])
            return GridApproximateRegions()
        }
        switch PlacesDatabase.shared {
        case .success(let database):
            return PlaceApproximateRegions(database: database, seed: seed)
        case .failure(let error):
            logger.error("approximate location falls back to a public grid: the places database cannot be opened",
                         metadata: ["error": "\(error)"])
            return GridApproximateRegions()
        }
    }
}
